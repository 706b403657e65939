import type { IncomingMessage } from 'node:http';
import { bearerOf, sameSecret } from './auth.js';
import { ApiError } from './http-kit.js';
import type { ScreenReach, ScreenReaches } from './routes.js';

/** The screens that hold a token of their own: each reaches only the sales it started. */
export const SCREEN_SCOPES = ['kiosk', 'cashier'] as const;
export type ScreenScope = (typeof SCREEN_SCOPES)[number];
/** What `scope`'s token reaches of an operation whose declaration says `screens` (src/api/routes.ts). */
export function reachOf(screens: ScreenReaches | undefined, scope: ScreenScope): ScreenReach | undefined {
  return typeof screens === 'object' ? screens[scope] : screens;
}
/** `register`: the cash register's token, every operation; a screen's: those whose declaration names `screens` (src/api/routes.ts). */
export type Scope = 'register' | ScreenScope;

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

/** Past this many owners in memory, the oldest is forgotten there (its row stays). */
const MAX_CACHED = 10_000;

/** Where owners are kept across restarts (`PaymentOwnerRows` of src/store, with the payments). */
export interface OwnerRows {
  record(id: number, owner: string): void;
  ownerOf(id: number): string | undefined;
}

/**
 * Which screen started which payment, so a screen's token reads and cancels only its own. Written
 * to `rows` (the terminal's database) when given, so a screen still reaches its payments after a
 * restart; the newest owners are also kept in memory. Without `rows` (an app built for a test),
 * memory only: after a restart a screen reaches none of its earlier sales (it fails closed).
 */
export class PaymentOwners {
  readonly #owner = new Map<number, ScreenScope>();
  readonly #rows: OwnerRows | undefined;

  constructor(rows?: OwnerRows) {
    this.#rows = rows;
  }

  claim(id: number, scope: ScreenScope): void {
    this.#remember(id, scope);
    try {
      this.#rows?.record(id, scope);
    } catch {
      // A write that fails (a full disk) loses only the restart: memory holds the owner until then,
      // and after it the screen fails closed. The sale it started is not failed for it.
    }
  }

  owns(id: number, scope: ScreenScope): boolean {
    const known = this.#owner.get(id);
    if (known !== undefined) return known === scope;
    const stored = this.#rows?.ownerOf(id);
    if (stored !== scope) return false;
    this.#remember(id, scope);
    return true;
  }

  #remember(id: number, scope: ScreenScope): void {
    this.#owner.delete(id);
    this.#owner.set(id, scope);
    if (this.#owner.size > MAX_CACHED) this.#owner.delete(this.#owner.keys().next().value as number);
  }
}

/**
 * Refuses `route` to a screen's `scope`: 401 when the route is not a screen's (no `reach`), 404 when
 * it is one payment's (`own`) and not a payment this screen started. An `own` listing (`GET` of a
 * path without `{id}`) passes: its handler lists only what `mayRead` of the scoped deps says this
 * screen started (src/api/app.ts). The register's scope passes everything.
 */
export function checkScope(
  scope: Scope,
  screens: ScreenReaches | undefined,
  route: string,
  id: string | undefined,
  owners: PaymentOwners,
): void {
  if (scope === 'register') return;
  const reach = reachOf(screens, scope);
  if (reach === undefined) throw new ApiError(401, 'UNAUTHORIZED', `a ${scope} screen's token does not reach ${route}`);
  if (reach === 'own' && isListing(route)) return;
  if (reach === 'own' && !(id !== undefined && /^\d{1,15}$/.test(id) && owners.owns(Number(id), scope)))
    throw new ApiError(404, 'NOT_FOUND', `no payment ${id ?? ''}`);
}

/** `GET /v1/payments`: a listing, whose `own` reach is a filter of its rows rather than one payment's check. */
const isListing = (route: string): boolean => route.startsWith('GET ') && !route.includes('{');
