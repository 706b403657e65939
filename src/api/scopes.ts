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
  readonly #typing = new Map<string, ScreenScope>();

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

  /**
   * A screen's request typing a card (its `Idempotency-Key`) until `release`d: the pinpad's prompts of
   * that request, published before any payment row exists, go to that screen's stream too.
   */
  typing(key: string, scope: ScreenScope): () => void {
    this.#typing.set(key, scope);
    return () => {
      if (this.#typing.get(key) === scope) this.#typing.delete(key);
    };
  }

  /** The screen whose open request holds `key`, if any. */
  typingBy(key: string): ScreenScope | undefined {
    return this.#typing.get(key);
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
 * it is one payment's (`own`) and not a payment this screen started. `own` on a route that names no
 * payment (no `{id}`) passes: its handler touches only what this screen started, through the scoped
 * deps (src/api/app.ts): a listing keeps the rows `mayRead` allows, a creation claims what it starts
 * (`onStarted`) and refuses another's Idempotency-Key. The register's scope passes everything.
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
  if (reach === 'own' && !route.includes('{')) return;
  if (reach === 'own' && !(id !== undefined && /^\d{1,15}$/.test(id) && owners.owns(Number(id), scope)))
    throw new ApiError(404, 'NOT_FOUND', `no payment ${id ?? ''}`);
}
