import { z } from 'zod';
import { OmniposError, type Clock } from '../core/index.js';
import { httpError } from './errors.js';
import type { AcquirerHttp } from './http.js';

/** The public manual's scopes: the client asks for these (docs/acquirer.md, "OAuth scopes"). */
export const OMNI_SCOPES = {
  transactional: 'PhysicalCieloTransactional',
  registration: 'PhysicalCieloMaster',
} as const;

export type ScopeFamily = keyof typeof OMNI_SCOPES;

/** Anything that can reveal a secret (config's Secret, or a plain holder in tests). */
export interface SecretSource {
  reveal(): string;
}

export interface OAuthOptions {
  http: AcquirerHttp;
  clientId: string;
  clientSecret: SecretSource;
  clock: Clock;
  /** Renew this long before `expires_in` runs out: min(marginMs, a tenth of the lifetime). Default 60 s. */
  marginMs?: number;
}

const TokenAnswer = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
  expires_in: z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]),
});

interface Cached {
  token: string;
  renewAt: number;
}

/**
 * OAuth 2.0 client credentials for the omni API (`POST {auth}/oauth2/token`, Basic
 * client_id:client_secret). One token per scope family, cached until shortly before it expires;
 * concurrent callers share one request; `invalidate` after a 401 forces the next call to renew.
 * The token and the secret are never logged (the HTTP layer logs no headers or bodies).
 */
export class OmniTokens {
  readonly #o: OAuthOptions;
  readonly #cache = new Map<ScopeFamily, Cached>();
  readonly #inflight = new Map<ScopeFamily, Promise<string>>();

  constructor(options: OAuthOptions) {
    this.#o = options;
  }

  /** A valid bearer token for the scope family. */
  token(scope: ScopeFamily): Promise<string> {
    const cached = this.#cache.get(scope);
    if (cached && this.#o.clock.now().getTime() < cached.renewAt) return Promise.resolve(cached.token);
    let p = this.#inflight.get(scope);
    if (!p) {
      p = this.#fetch(scope).finally(() => this.#inflight.delete(scope));
      this.#inflight.set(scope, p);
    }
    return p;
  }

  /**
   * Asks the host for a new token now, whatever the cache holds, and keeps it (the daemon's
   * reachability probe: the cheapest request that proves the host answers). `timeoutMs` bounds
   * this one request (default: the HTTP layer's).
   */
  async refresh(scope: ScopeFamily, timeoutMs?: number): Promise<void> {
    await this.#fetch(scope, timeoutMs);
  }

  /** Forgets the cached token (after the host answered 401 to it). */
  invalidate(scope: ScopeFamily, token?: string): void {
    const cached = this.#cache.get(scope);
    if (cached && (token === undefined || cached.token === token)) this.#cache.delete(scope);
  }

  async #fetch(scope: ScopeFamily, timeoutMs?: number): Promise<string> {
    const basic = Buffer.from(`${this.#o.clientId}:${this.#o.clientSecret.reveal()}`).toString('base64');
    const res = await this.#o.http.send(
      'omniToken',
      {},
      {
        form: { grant_type: 'client_credentials', scope: OMNI_SCOPES[scope] },
        headers: { authorization: `Basic ${basic}` },
        ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      },
    );
    if (res.status !== 200 && res.status !== 201) throw httpError('omniToken', res.status, res.body);
    const parsed = TokenAnswer.safeParse(res.body);
    if (!parsed.success) {
      throw new OmniposError('ACQUIRER_BAD_RESPONSE', 'omniToken: the answer has no access_token/expires_in', {
        route: 'omniToken',
        status: res.status,
        outcomeUnknown: false,
      });
    }
    const lifetimeMs = parsed.data.expires_in * 1000;
    const margin = Math.min(this.#o.marginMs ?? 60_000, lifetimeMs / 10);
    this.#cache.set(scope, {
      token: parsed.data.access_token,
      renewAt: this.#o.clock.now().getTime() + lifetimeMs - margin,
    });
    return parsed.data.access_token;
  }
}
