import { mkdtempSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { SANDBOX_CREDENTIALS } from '../../tables/sandbox-credentials.js';
import { createLogger } from '../../src/core/log/index.js';
import { buildSandbox } from '../../src/sandbox/index.js';
import { BASE_SOURCES, SANDBOX_BASES, SANDBOX_ROUTES, type SandboxBase } from '../../src/sandbox/routes.js';
import { CONTENT_TYPES, documentWords, jsonBodies, type AsyncTarget } from './http-inputs.js';
import { exchange } from './socketless-exchange.js';

/**
 * The sandbox host: requests on every base (the omni API, e-commerce, registration, the wallet's
 * token, key, QR parse and card payment), routes from its table with random parameters or random
 * paths, valid or broken credentials, JSON bodies keyed by the documents' field names. A crash is
 * a 500 (the host's "unexpected error") or an error the host logged.
 */
export async function sandboxTarget(root: string, only?: SandboxBase): Promise<AsyncTarget<unknown>> {
  const crashes: string[] = [];
  const dir = mkdtempSync(path.join(tmpdir(), 'omnipos-fuzz-sandbox-'));
  const sandbox = buildSandbox({
    dbFile: path.join(dir, 'acquirer.db'),
    log: createLogger({ level: 'error', destination: { write: (s: string) => void crashes.push(s) } }),
    withholdMs: 0,
    callbackRetryMs: 3_600_000,
  });
  const listeners = Object.fromEntries(SANDBOX_BASES.map((b) => [b, sandbox.listener(b)])) as Record<
    SandboxBase,
    (req: IncomingMessage, res: ServerResponse) => void
  >;
  const basic = `Basic ${Buffer.from(`${SANDBOX_CREDENTIALS.clientId}:${SANDBOX_CREDENTIALS.clientSecret}`).toString('base64')}`;
  const token = async (base: SandboxBase, url: string, type: string, body: string): Promise<string> => {
    const r = await exchange(
      listeners[base],
      'POST',
      `${BASE_SOURCES[base].prefix}${url}`,
      { authorization: basic, 'content-type': type },
      Buffer.from(body),
    );
    const t = (JSON.parse(r.body || '{}') as { access_token?: string }).access_token;
    if (!t) throw new Error(`no token from ${base}${url}: ${r.status} ${r.body}`);
    return t;
  };
  const omni = await token(
    'authorization',
    '/oauth2/token',
    'application/x-www-form-urlencoded',
    'grant_type=client_credentials',
  );
  const wallet = await token(
    'wallet',
    '/v2/oauth/access-token',
    'application/json',
    '{"grant_type":"client_credentials"}',
  );
  const words = documentWords(root);
  const bases = only ? [only] : [...SANDBOX_BASES];
  const routes = bases.flatMap((b) =>
    Object.values(SANDBOX_ROUTES[b] as Record<string, { method: string; path: string }>).map((r) => ({
      base: b,
      ...r,
    })),
  );
  const param = fc.oneof(
    fc.uuid().map(String),
    fc.stringMatching(/^\d{1,16}$/),
    fc.string({ maxLength: 20 }).map(encodeURIComponent),
    fc.constantFrom('..', '%00', '%2F', 'orderId', ''),
  );
  const request = fc.record({
    route: fc.constantFrom(...routes),
    params: fc.array(param, { minLength: 4, maxLength: 4 }),
    randomPath: fc.option(
      fc.oneof(words.paths.length ? fc.constantFrom(...words.paths) : fc.constant('/'), fc.webPath()),
      { freq: 6 },
    ),
    method: fc.option(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'get'), { freq: 6 }),
    query: fc.option(
      fc.oneof(
        fc.string({ maxLength: 60 }).map((s) => `qrcode=${encodeURIComponent(s)}`),
        fc.webQueryParameters(),
      ),
      { freq: 3 },
    ),
    type: fc.oneof(fc.constantFrom(...CONTENT_TYPES), fc.string({ maxLength: 30 })),
    auth: fc.oneof(
      { arbitrary: fc.constant('good'), weight: 6 },
      { arbitrary: fc.constantFrom('basic', 'none'), weight: 1 },
      { arbitrary: fc.string({ maxLength: 40 }), weight: 1 },
    ),
    body: jsonBodies(words.fields),
  });
  return {
    name: only ? `sandbox-requests (${only})` : 'sandbox-requests (every base)',
    input: request,
    run: async (x: unknown) => {
      const r = x as {
        route: { base: SandboxBase; method: string; path: string };
        params: string[];
        randomPath: string | null;
        method: string | null;
        query: string | null;
        type: string;
        auth: string;
        body: Buffer;
      };
      let i = 0;
      const p = r.randomPath ?? r.route.path.replace(/\{[^}]+\}/g, () => r.params[i++ % r.params.length] as string);
      const url = `${BASE_SOURCES[r.route.base].prefix}${p}${r.query ? `?${r.query}` : ''}`;
      const good = r.route.base === 'wallet' ? `Bearer ${wallet}` : `Bearer ${omni}`;
      const authorization =
        r.auth === 'good' ? good : r.auth === 'basic' ? basic : r.auth === 'none' ? undefined : r.auth;
      const headers: Record<string, string> = {
        'content-type': r.type,
        ...(authorization !== undefined ? { authorization } : {}),
        merchantid: SANDBOX_CREDENTIALS.merchantId,
        merchantkey: SANDBOX_CREDENTIALS.merchantKey,
      };
      const answer = await exchange(listeners[r.route.base], r.method ?? r.route.method, url, headers, r.body);
      if (answer.status === 500 || crashes.length > 0) {
        const why = crashes.splice(0).join('\n').slice(0, 2000);
        throw new Error(`sandbox crash: ${answer.status} ${answer.body.slice(0, 300)} ${why}`);
      }
    },
  };
}
