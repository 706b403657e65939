import type { IncomingMessage } from 'node:http';
import { bearerOf, sameSecret } from './auth.js';
import { ApiError } from './http-kit.js';

/** The screens that hold a token of their own: each reaches only the sales it started. */
export const SCREEN_SCOPES = ['kiosk', 'cashier'] as const;
export type ScreenScope = (typeof SCREEN_SCOPES)[number];
/** `register`: the cash register's token, every operation; a screen's: {@link SCREEN_ROUTES} only. */
export type Scope = 'register' | ScreenScope;

/**
 * What a screen's token reaches (`METHOD path` as the router names routes): `any`, or `own` for a
 * route on one payment, which must be one this token started (another's is 404, as if it did not
 * exist). Everything else (the list of payments, confirm, undo, voids, the day, metrics) answers
 * 401 to a screen's token: the OpenAPI document lists no screen scheme on those operations.
 */
export const SCREEN_ROUTES: ReadonlyMap<string, 'any' | 'own'> = new Map([
  ['GET /v1/health', 'any'],
  ['POST /v1/payments', 'any'],
  ['GET /v1/payments/{id}', 'own'],
  ['POST /v1/payments/{id}/cancel', 'own'],
  ['GET /v1/payments/{id}/receipt', 'own'],
  ['POST /v1/payments/{id}/receipt/print', 'own'],
  ['POST /v1/payments/{id}/receipt/answer', 'own'],
  ['POST /v1/events/ticket', 'any'],
  ['GET /v1/events', 'any'],
]);

/** The bearer tokens the API takes: the cash register's, and each screen's when configured. */
export type ApiTokens = { register: string } & Partial<Record<ScreenScope, string>>;

/** The scope of `req`'s bearer token, compared in constant time with each; 401 for none. */
export function scopeOf(req: IncomingMessage, tokens: ApiTokens): Scope {
  const given = bearerOf(req);
  if (given !== undefined) {
    if (sameSecret(given, tokens.register)) return 'register';
    for (const s of SCREEN_SCOPES) {
      const want = tokens[s];
      if (want !== undefined && sameSecret(given, want)) return s;
    }
  }
  throw new ApiError(401, 'UNAUTHORIZED', 'a valid bearer token is required (see `omnipos api token`)');
}

/** Past this many payments remembered, the oldest owner is forgotten (its screen no longer reads it). */
const MAX_OWNED = 10_000;

/**
 * Which screen started which payment, so a screen's token reads and cancels only its own. Kept in
 * memory: after a restart a screen reaches none of its earlier sales (it fails closed; the cash
 * register's token reaches them all).
 */
export class PaymentOwners {
  readonly #owner = new Map<number, ScreenScope>();

  claim(id: number, scope: ScreenScope): void {
    this.#owner.delete(id);
    this.#owner.set(id, scope);
    if (this.#owner.size > MAX_OWNED) this.#owner.delete(this.#owner.keys().next().value as number);
  }

  owns(id: number, scope: ScreenScope): boolean {
    return this.#owner.get(id) === scope;
  }
}

/**
 * Refuses `route` to a screen's `scope`: 401 when the route is not a screen's, 404 when it is one
 * payment's and not a payment this screen started. The register's scope passes everything.
 */
export function checkScope(scope: Scope, route: string, id: string | undefined, owners: PaymentOwners): void {
  if (scope === 'register') return;
  const reach = SCREEN_ROUTES.get(route);
  if (reach === undefined) throw new ApiError(401, 'UNAUTHORIZED', `a ${scope} screen's token does not reach ${route}`);
  if (reach === 'own' && !(id !== undefined && /^\d{1,15}$/.test(id) && owners.owns(Number(id), scope)))
    throw new ApiError(404, 'NOT_FOUND', `no payment ${id ?? ''}`);
}
