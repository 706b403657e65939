import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { SANDBOX_CREDENTIALS } from '../../tables/sandbox-credentials.js';
import type { SandboxContext } from './context.js';
import { formBody, Refusal, type Answer, type SandboxRequest } from './http-kit.js';

/** Scopes the omni token endpoint accepts: the public manual's and the seed's (docs/acquirer.md, "OAuth scopes"). */
export const MANUAL_SCOPES = ['PhysicalCieloMaster', 'PhysicalCieloTransactional'] as const;
export const SEED_SCOPES = ['Administrator', 'AnalyticsApiOverview', 'AdminBackoffice'] as const;
/** The one scope a token asked without `scope` gets (CONECTA_PT 65 does not name it; docs/decisions.md). */
export const DEFAULT_SCOPE: (typeof MANUAL_SCOPES)[number] = 'PhysicalCieloTransactional';
const KNOWN = new Set<string>([...MANUAL_SCOPES, ...SEED_SCOPES]);

/** Which scopes open which family of routes. */
const FAMILY: Record<'transactional' | 'registration', readonly string[]> = {
  transactional: ['PhysicalCieloTransactional', 'Administrator'],
  registration: ['PhysicalCieloMaster', 'Administrator', 'AdminBackoffice'],
};

/** Tokens are kept as SHA-256 hashes only. */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');
const hash = hashToken;

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** `Authorization: Basic base64(id:secret)` → the pair, or undefined. */
export function basicCredentials(header: string | undefined): { id: string; secret: string } | undefined {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!m) return undefined;
  const text = Buffer.from(m[1] as string, 'base64').toString('utf8');
  const i = text.indexOf(':');
  return i < 0 ? undefined : { id: text.slice(0, i), secret: text.slice(i + 1) };
}

export function credentialsOk(c: { id: string; secret: string } | undefined): boolean {
  return (
    c !== undefined &&
    safeEqual(c.id, SANDBOX_CREDENTIALS.clientId) &&
    safeEqual(c.secret, SANDBOX_CREDENTIALS.clientSecret)
  );
}

/** Issues a token and keeps only its hash. */
export function issueToken(
  ctx: SandboxContext,
  api: 'omni' | 'wallet',
  scopes: string[],
): { access_token: string; token_type: string; expires_in: number } {
  const token = randomBytes(32).toString('base64url');
  const ttl = ctx.options.tokenTtlSeconds;
  ctx.db
    .prepare(`INSERT INTO tokens (token_hash, api, scopes, expires_at) VALUES (?, ?, ?, ?)`)
    .run(hash(token), api, scopes.join(' '), ctx.clock.now().getTime() + ttl * 1000);
  return { access_token: token, token_type: 'bearer', expires_in: ttl };
}

/** `POST /oauth2/token`: client credentials, Basic auth, form body, either scope set. */
export function omniToken(ctx: SandboxContext, req: SandboxRequest): Answer {
  const form = formBody(req);
  if (!credentialsOk(basicCredentials(req.headers.authorization))) {
    return {
      status: 401,
      body: { error: 'invalid_client', error_description: 'client authentication failed' },
      headers: { 'www-authenticate': 'Basic' },
    };
  }
  if (form.get('grant_type') !== 'client_credentials') {
    return {
      status: 400,
      body: { error: 'unsupported_grant_type', error_description: 'grant_type must be client_credentials' },
    };
  }
  const asked = (form.get('scope') ?? '').split(/[\s,]+/).filter((s) => s !== '');
  const unknown = asked.filter((s) => !KNOWN.has(s));
  if (unknown.length > 0)
    return { status: 400, body: { error: 'invalid_scope', error_description: `unknown scope ${unknown.join(' ')}` } };
  // "Se não solicitar um escopo ele é atribuido por padrão" (CONECTA_PT 65): one scope by default, and
  // the page does not say which; the sandbox gives the transactional one, so a client that relies on a
  // scope-less token for registration fails here as it may at the host.
  const scopes = asked.length > 0 ? asked : [DEFAULT_SCOPE];
  return { status: 200, body: issueToken(ctx, 'omni', scopes) };
}

/** Checks the bearer token of an omni request and its scope; throws a 401/403 Refusal. */
export function requireToken(
  ctx: SandboxContext,
  req: SandboxRequest,
  family: 'transactional' | 'registration',
  api: 'omni' | 'wallet' = 'omni',
): void {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  if (!m) throw new Refusal(401, undefined, { 'www-authenticate': 'Bearer' });
  const row = ctx.db
    .prepare(`SELECT api, scopes, expires_at FROM tokens WHERE token_hash = ?`)
    .get(hash(m[1] as string)) as { api: string; scopes: string; expires_at: number } | undefined;
  if (!row || row.api !== api) {
    throw new Refusal(401, undefined, { 'www-authenticate': 'Bearer error="invalid_token"' });
  }
  if (row.expires_at <= ctx.clock.now().getTime()) {
    throw new Refusal(401, undefined, {
      'www-authenticate': 'Bearer error="invalid_token", error_description="The access token expired"',
    });
  }
  if (api === 'omni') {
    const scopes = row.scopes.split(' ');
    if (!FAMILY[family].some((s) => scopes.includes(s))) {
      throw new Refusal(403, undefined, {
        'www-authenticate': `Bearer error="insufficient_scope", scope="${FAMILY[family].join(' ')}"`,
      });
    }
  }
}
