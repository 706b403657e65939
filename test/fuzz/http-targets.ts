// Fuzz targets that read HTTP requests and files (issue 23): the sandbox host's request handling
// on every base (the wallet payloads among them), the local API's payment body and headers, and
// the configuration loader with OMNIPOS_* overrides. Used by campaign.ts.
import { EventEmitter } from 'node:events';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { SANDBOX_CREDENTIALS } from '../../tables/sandbox-credentials.js';
import { requireToken } from '../../src/api/auth.js';
import { ApiError, readJson } from '../../src/api/http-kit.js';
import { PaymentRequest } from '../../src/api/payments.js';
import { loadConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/core/log/index.js';
import { buildSandbox } from '../../src/sandbox/index.js';
import { BASE_SOURCES, SANDBOX_BASES, SANDBOX_ROUTES, type SandboxBase } from '../../src/sandbox/routes.js';

export interface AsyncTarget<T> {
  name: string;
  input: fc.Arbitrary<T>;
  run(x: T): Promise<unknown>;
}

/**
 * Words from the acquirer's documents (../shared/seeds, `FUZZ_SEEDS` to name another folder): the
 * field names of their tables (first column) and the paths they name. Empty where the folder is
 * not there: the generators then fall back to their own keys.
 */
export function documentWords(root: string): { fields: string[]; paths: string[] } {
  const dir =
    process.env.FUZZ_SEEDS ??
    [path.join(root, '..', 'shared', 'seeds'), path.join(root, '..', '..', 'shared', 'seeds')].find((d) =>
      existsSync(d),
    );
  const fields = new Set<string>();
  const paths = new Set<string>();
  if (!dir || !existsSync(dir)) return { fields: [], paths: [] };
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.txt'))) {
    const text = readFileSync(path.join(dir, f), 'utf8');
    for (const m of text.matchAll(/^\| `?([A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_[\]]+)*)`? \|/gm)) {
      for (const part of (m[1] as string).split('.')) fields.add(part.replace(/\[\]$/, ''));
    }
    for (const m of text.matchAll(/(?:^|[\s|`(])(\/[A-Za-z0-9{}_.\-/]+)/gm)) paths.add(m[1] as string);
  }
  return { fields: [...fields].filter((k) => k.length > 1), paths: [...paths] };
}

/** JSON objects whose keys come from `keys` (nested, with every kind of value), as text or as bytes around it. */
function jsonBodies(keys: readonly string[]): fc.Arbitrary<Buffer> {
  const key =
    keys.length > 0
      ? fc.oneof(
          { arbitrary: fc.constantFrom(...keys), weight: 4 },
          { arbitrary: fc.string({ maxLength: 12 }), weight: 1 },
        )
      : fc.string({ maxLength: 12 });
  const leaf = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.stringMatching(/^\d{1,20}$/),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.constantFrom(
      'CreditCard',
      'DebitCard',
      'Emv',
      'Typed',
      'client_credentials',
      '4761739001010010',
      '00020101021226',
    ),
  );
  const value = fc.letrec((tie) => ({
    v: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.array(tie('v'), { maxLength: 4 }),
      fc.dictionary(key, tie('v'), { maxKeys: 6 }),
    ),
  })).v;
  const object = fc.dictionary(key, value, { maxKeys: 10 }).map((o) => Buffer.from(JSON.stringify(o)));
  const edited = fc
    .tuple(object, fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 4 }))
    .map(([b, at, bytes]) =>
      Buffer.concat([b.subarray(0, at % (b.length + 1)), Buffer.from(bytes), b.subarray(at % (b.length + 1))]),
    );
  return fc.oneof(
    { arbitrary: object, weight: 5 },
    { arbitrary: edited, weight: 2 },
    { arbitrary: fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)), weight: 1 },
    { arbitrary: fc.constant(Buffer.alloc(0)), weight: 1 },
  );
}

/** One request handed to a node-style (req, res) listener without a socket; resolves with the status (-1: connection dropped). */
function exchange(
  listener: (req: IncomingMessage, res: ServerResponse) => void,
  method: string,
  url: string,
  headers: Record<string, string>,
  body: Buffer,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const socket = { destroy: () => resolve({ status: -1, body: '' }) };
    const req = Object.assign(Readable.from(body.length > 0 ? [body] : []), { method, url, headers, socket });
    let status = 0;
    const res = Object.assign(new EventEmitter(), {
      headersSent: false,
      destroyed: false,
      socket: {
        destroy: () => {
          res.emit('close');
          resolve({ status: -1, body: '' });
        },
      },
      writeHead(s: number) {
        status = s;
        res.headersSent = true;
        return res;
      },
      setHeader: () => res,
      end(text?: string) {
        resolve({ status, body: text ?? '' });
        return res;
      },
      destroy() {
        res.destroyed = true;
        resolve({ status: -1, body: '' });
        return res;
      },
    });
    listener(req as unknown as IncomingMessage, res as unknown as ServerResponse);
  });
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/x-www-form-urlencoded',
  'text/plain',
  'application/problem+json',
  '',
];

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

/**
 * The local API's `POST /v1/payments` reading: the Authorization and Idempotency-Key headers, the
 * media type, the body (split in chunks, as a socket delivers it) and its validation. A refusal
 * is an ApiError (4xx); anything else thrown is a crash.
 */
export function apiTarget(): AsyncTarget<unknown> {
  const token = 'fuzz-token-0123456789';
  const IDEMPOTENCY_KEY = /^[A-Za-z0-9._:-]{1,64}$/;
  const keys = [
    'amount',
    'method',
    'payer',
    'name',
    'document',
    'qrModality',
    'installments',
    'interest',
    'confirmation',
    'receipt',
    'entry',
  ];
  return {
    name: 'api-payment-request (body and headers)',
    input: fc.record({
      authorization: fc.oneof(
        fc.constant(`Bearer ${token}`),
        fc.string({ maxLength: 60 }),
        fc.string({ maxLength: 40 }).map((s) => `Bearer ${s}`),
      ),
      key: fc.option(fc.oneof(fc.stringMatching(/^[A-Za-z0-9._:-]{1,64}$/), fc.string({ maxLength: 80 }))),
      type: fc.oneof(
        fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', ''),
        fc.string({ maxLength: 30 }),
      ),
      body: fc.oneof(
        jsonBodies(keys),
        fc
          .record(
            {
              amount: fc.oneof(fc.integer(), fc.double(), fc.string()),
              method: fc.constantFrom('credit', 'debit', 'voucher', 'wallet-qr', 'pix', 'x'),
              payer: fc.option(fc.record({ name: fc.string(), document: fc.stringMatching(/^[\d.\-/ ]{0,20}$/) })),
            },
            { requiredKeys: [] },
          )
          .map((o) => Buffer.from(JSON.stringify(o))),
      ),
      cut: fc.nat(),
    }),
    run: async (x: unknown) => {
      const r = x as { authorization: string; key: string | null; type: string; body: Buffer; cut: number };
      const at = r.cut % (r.body.length + 1);
      const req = Object.assign(
        Readable.from([r.body.subarray(0, at), r.body.subarray(at)].filter((c) => c.length > 0)),
        {
          headers: {
            authorization: r.authorization,
            'content-type': r.type,
            ...(r.key !== null ? { 'idempotency-key': r.key } : {}),
          },
        },
      ) as unknown as IncomingMessage;
      // Each step is tried whatever the one before said, so a bad token does not hide the body.
      let refused: ApiError | undefined;
      try {
        requireToken(req, token);
      } catch (e) {
        if (!(e instanceof ApiError) || e.status >= 500) throw e;
        refused = e;
      }
      if (r.key !== null && !IDEMPOTENCY_KEY.test(r.key))
        refused ??= new ApiError(400, 'INVALID_FIELD', 'Idempotency-Key');
      try {
        if (!PaymentRequest.safeParse(await readJson(req)).success)
          refused ??= new ApiError(400, 'INVALID_FIELD', 'body');
      } catch (e) {
        if (!(e instanceof ApiError) || e.status >= 500) throw e;
        refused ??= e;
      }
      if (refused) throw refused;
    },
  };
}

/**
 * The configuration loader: the file (the repository's own configurations, edited; random JSON
 * objects) and OMNIPOS_* overrides (known keys, with every kind of value; unknown keys). A
 * refusal is CONFIG_INVALID / ENVIRONMENT_REFUSED (an OmniposError).
 */
export function configTarget(root: string): AsyncTarget<unknown> {
  const dir = mkdtempSync(path.join(tmpdir(), 'omnipos-fuzz-config-'));
  const file = path.join(dir, 'omnipos.json');
  // The sandbox's secret files the configuration names, beside it (as in the repository).
  cpSync(path.join(root, 'config', 'sandbox'), path.join(dir, 'sandbox'), { recursive: true });
  const base = readFileSync(path.join(root, 'config', 'omnipos.json'), 'utf8');
  const known = [
    'STATE_DIR',
    'ENVIRONMENT',
    'TERMINAL__TERMINAL_ID',
    'TERMINAL__MODE',
    'TERMINAL__ORDINAL',
    'PINPAD__DEVICE__KIND',
    'PINPAD__DEVICE__PORT',
    'PINPAD__DEVICE__PATH',
    'PINPAD__DEVICE__HOST',
    'PRINTER__KIND',
    'ACQUIRER__TIMEOUT_MS',
    'API__PORT',
    'API__HOST',
    'QR__PROVIDER',
    'QR__VALIDITY_SECONDS',
    'SANDBOX__EMBEDDED',
    'PAYMENTS__ECR_DECISION_SECONDS',
    'FLEET__MQTT__URL',
    'LOG__LEVEL',
  ];
  const edit = fc.tuple(fc.nat(), fc.nat({ max: 8 }), fc.string({ maxLength: 6 })).map(([at, cut, ins]) => {
    const i = at % (base.length + 1);
    return base.slice(0, i) + ins + base.slice(i + cut);
  });
  const envValue = fc.oneof(
    fc.constantFrom(
      'true',
      'false',
      'null',
      '0',
      '-1',
      '4000',
      '1e400',
      '[]',
      '{}',
      '{"kind":"tcp"}',
      'tcp',
      'virtual',
      'bibcomp',
      'serial',
      'sandbox',
      'production',
      '/dev/ttyACM0',
      '',
    ),
    fc.string({ maxLength: 20 }),
    fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
  );
  return {
    name: 'configuration (file + OMNIPOS_* overrides)',
    input: fc.record({
      text: fc.oneof(
        { arbitrary: fc.constant(base), weight: 3 },
        { arbitrary: edit, weight: 3 },
        { arbitrary: fc.json({ maxDepth: 3 }), weight: 1 },
      ),
      env: fc.dictionary(
        fc
          .oneof(
            { arbitrary: fc.constantFrom(...known), weight: 5 },
            { arbitrary: fc.stringMatching(/^[A-Z_]{1,20}$/), weight: 1 },
          )
          .map((k) => `OMNIPOS_${k}`),
        envValue,
        { maxKeys: 4 },
      ),
    }),
    run: (x: unknown) => {
      const r = x as { text: string; env: Record<string, string> };
      writeFileSync(file, r.text);
      return Promise.resolve(loadConfig({ path: file, env: { OMNIPOS_STATE_DIR: dir, ...r.env } }));
    },
  };
}
