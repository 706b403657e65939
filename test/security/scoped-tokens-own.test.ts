import { readFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/api/operations.js';
import { reachOf, SCREEN_SCOPES, type ScreenScope } from '../../src/api/scopes.js';
import { CNP_BACKENDS, settledSale, typeCard } from '../helpers/cnp-backends.js';
import { startTestDaemon, type TestDaemon } from '../helpers/daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { bearer, send } from './attacker.js';

/**
 * The adversary of `own` (docs/security.md "Scoped tokens"): every operation a screen's token reaches as `own` is
 * read from OPERATIONS and driven with each screen's token against a daemon holding rows of the kiosk, of the
 * cashier and of the cash register. An `own` route with `{id}` must answer another's row as it answers a row that
 * does not exist, and change nothing of it; one without `{id}` passes the router (src/api/scopes.ts) and must keep
 * to the screen's rows in its handler: each of those has an adversary in NO_ID below, and an `own` operation
 * without one fails. The stream (`any`, filtered in its handler) is held the same way. The adversary is shown
 * failing on a planted handler that forgets to filter: a proxy that serves a screen's request on a route as the
 * cash register's.
 */
type Owner = ScreenScope | 'register';
type Tokens = Record<Owner, string>;
/** The rows each owner started: card payments (cancelled), phone orders, recurrences. */
type Rows = Record<Owner, number[]>;
const OWNERS: readonly Owner[] = ['kiosk', 'cashier', 'register'];
const NO_ROW = 999_999_999;
/** Who starts a recurrence (the kiosk's one product, and the register) and a phone order (the cashier and the register). */
const RECURRING: readonly Owner[] = ['kiosk', 'register'];
const PHONING: readonly Owner[] = ['cashier', 'register'];
const ecommerce = CNP_BACKENDS.find((b) => b.name === 'ecommerce')!;
const RECURRENCE = { amount: ecommerce.approvedAmount, holder: 'MARIA SILVA', interval: 'monthly' };

const ownOps = OPERATIONS.flatMap((o) =>
  SCREEN_SCOPES.filter((s) => reachOf(o.screens, s) === 'own').map((screen) => ({ o, screen })),
);

/** Each `own` operation without `{id}`: what a screen's token must never get of another's rows through it. */
const NO_ID: Record<string, (api: string, screen: ScreenScope, tokens: Tokens, rows: Rows) => Promise<string[]>> = {
  async listPayments(api, screen, tokens, rows) {
    const out: string[] = [];
    for (const query of ['', '?status=cancelled', '?status=approved']) {
      const r = await send(api, 'GET', `/v1/payments${query}`, { headers: bearer(tokens[screen]) });
      const listed = ((r.json.payments ?? []) as { id: number }[]).map((p) => p.id);
      const foreign = listed.filter((id) => !rows[screen].includes(id));
      if (foreign.length) out.push(`listPayments${query}: ${screen} sees ${foreign.join(', ')}`);
    }
    const all = await send(api, 'GET', '/v1/payments', { headers: bearer(tokens[screen]) });
    const listed = ((all.json.payments ?? []) as unknown[]).length;
    if (listed > rows[screen].length)
      out.push(`listPayments: ${screen} counts ${listed} rows, it started ${rows[screen].length}`);
    return out;
  },
  async createCardNotPresentRecurrence(api, screen, tokens) {
    // another's Idempotency-Key replayed with the very body it was created with: never its recurrence, never its id
    const out: string[] = [];
    for (const other of RECURRING.filter((o) => o !== screen)) {
      const r = await send(api, 'POST', '/v1/card-not-present/recurrences', {
        headers: bearer(tokens[screen], { 'idempotency-key': `rec-${other}` }),
        body: JSON.stringify(RECURRENCE),
      });
      if (r.status < 400 || r.json.error?.code !== 'IDEMPOTENCY_KEY_REUSED')
        out.push(`createCardNotPresentRecurrence: ${screen} replaying ${other}'s key got ${r.status} ${r.text}`);
    }
    return out;
  },
};

/** The answer (status, error code) of `method path` on `token`, `{id}` as `id`. */
async function answer(api: string, o: (typeof OPERATIONS)[number], token: string, id: number): Promise<string> {
  const r = await send(api, o.method, o.path.replace('{id}', String(id)), {
    headers: bearer(token),
    body: o.method === 'POST' ? '{}' : '',
  });
  return `${r.status} ${r.json.error?.code ?? ''}`;
}

/** What the cash register sees of row `id` (its status), to show a screen's request changed nothing. */
const stateOf = async (api: string, tokens: Tokens, id: number): Promise<string> =>
  (await send(api, 'GET', `/v1/payments/${id}`, { headers: bearer(tokens.register) })).text;

/** Every way a screen's token reaches another's rows through the `own` operations and the stream. */
async function ownViolations(api: string, tokens: Tokens, rows: Rows): Promise<string[]> {
  const out: string[] = [];
  for (const { o, screen } of ownOps) {
    if (!o.path.includes('{id}')) {
      const adversary = NO_ID[o.operationId];
      if (!adversary) out.push(`${o.operationId}: own without {id} and no adversary in NO_ID`);
      else out.push(...(await adversary(api, screen, tokens, rows)));
      continue;
    }
    const none = await answer(api, o, tokens[screen], NO_ROW);
    for (const other of OWNERS.filter((x) => x !== screen))
      for (const id of rows[other]) {
        const before = await stateOf(api, tokens, id);
        const got = await answer(api, o, tokens[screen], id);
        if (got !== none) out.push(`${o.operationId}: ${screen} on ${other}'s ${id} got ${got}, not ${none}`);
        if ((await stateOf(api, tokens, id)) !== before)
          out.push(`${o.operationId}: ${screen} changed ${other}'s ${id}`);
      }
    if (o.method === 'GET')
      for (const id of rows[screen]) {
        const got = await answer(api, o, tokens[screen], id);
        if (got.startsWith('401')) out.push(`${o.operationId}: ${screen} refused its own ${id}`);
      }
  }
  for (const screen of SCREEN_SCOPES) {
    const seen = await replayIds(api, tokens[screen]);
    const foreign = seen.filter((id) => !rows[screen].includes(id));
    if (foreign.length) out.push(`streamEvents: ${screen} sees the events of ${[...new Set(foreign)].join(', ')}`);
  }
  return out;
}

/** The payment ids of the events a token's replay of the day holds (read for a moment, then closed). */
function replayIds(api: string, token: string): Promise<number[]> {
  const url = new URL(api);
  return new Promise((resolve, reject) => {
    let text = '';
    const headers = { authorization: `Bearer ${token}`, 'last-event-id': '0' };
    const req = request({ host: url.hostname, port: url.port, path: '/v1/events', headers, agent: false }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
    });
    const timer = setTimeout(() => req.destroy(), 1500);
    const ids = (): number[] =>
      [...text.matchAll(/^data: (.*)$/gm)]
        .map((m) => (JSON.parse(m[1] ?? '{}') as { id?: number }).id)
        .filter((id): id is number => typeof id === 'number');
    req.on('close', () => {
      clearTimeout(timer);
      resolve(ids());
    });
    req.on('error', (e) => (text ? resolve(ids()) : reject(e)));
    req.end();
  });
}

/** A handler that forgets to filter, planted: a screen's request on a route matching `planted` is served as the register's. */
async function plantedProxy(api: string, tokens: Tokens, planted: RegExp): Promise<Server> {
  const target = new URL(api);
  const server = createServer((req, res) => {
    const headers = { ...req.headers };
    const [method, p] = [req.method ?? 'GET', req.url ?? '/'];
    if (planted.test(`${method} ${p.split('?')[0]}`)) headers.authorization = `Bearer ${tokens.register}`;
    const up = request({ host: target.hostname, port: target.port, method, path: p, headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

describe("a screen's token never reaches another's rows through an `own` route", () => {
  const tempDir = useTempDirs();
  let t: TestDaemon;
  const tokens = {} as Tokens;
  const rows: Rows = { kiosk: [], cashier: [], register: [] };

  const settled = (id: number) =>
    settledSale(id, async () => {
      const r = await send(t.apiUrl, 'GET', `/v1/card-not-present/sales/${id}`, { headers: bearer(t.token) });
      return r.json as { state?: unknown };
    });
  const start = async (owner: Owner, p: string, body: object, key: string, typed: boolean): Promise<void> => {
    if (typed) typeCard(t, ecommerce.approved);
    const post = () =>
      send(t.apiUrl, 'POST', p, {
        headers: bearer(tokens[owner], { 'idempotency-key': key }),
        body: JSON.stringify(body),
      });
    let r = await post();
    // the cancelled payment before holds the terminal until its flow ends
    for (let i = 0; i < 400 && r.status === 409 && r.json.error?.code === 'BUSY'; i++) {
      await new Promise((res) => setTimeout(res, 25));
      r = await post();
    }
    expect(r.status, r.text).toBe(202);
    const id = r.json.id as number;
    if (typed) await settled(id);
    else
      expect((await send(t.apiUrl, 'POST', `${p}/${id}/cancel`, { headers: bearer(tokens[owner]) })).status).toBe(200);
    rows[owner].push(id);
  };

  beforeAll(async () => {
    t = await startTestDaemon({ prefix: 'omnipos-sec-own-', env: ecommerce.env(tempDir()) });
    tokens.register = t.token;
    for (const s of SCREEN_SCOPES) tokens[s] = readFileSync(path.join(t.stateDir, `${s}-token`), 'utf8').trim();
    const sale = { amount: ecommerce.approvedAmount, holder: 'MARIA SILVA', ...ecommerce.body };
    for (const owner of OWNERS) {
      const card = { amount: 1234, method: 'credit', confirmation: 'ecr' };
      await start(owner, '/v1/payments', card, `card-${owner}`, false);
      if (PHONING.includes(owner)) await start(owner, '/v1/card-not-present/sales', sale, `sale-${owner}`, true);
      if (RECURRING.includes(owner))
        await start(owner, '/v1/card-not-present/recurrences', RECURRENCE, `rec-${owner}`, true);
    }
  }, 240_000);
  afterAll(async () => {
    await t?.stop();
  });

  it('reads the `own` operations from OPERATIONS, with and without {id}, and each without one has its adversary', () => {
    expect(ownOps.filter(({ o }) => o.path.includes('{id}')).length).toBeGreaterThanOrEqual(8);
    const noId = [...new Set(ownOps.filter(({ o }) => !o.path.includes('{id}')).map(({ o }) => o.operationId))];
    expect(noId.sort()).toEqual(Object.keys(NO_ID).sort());
  });

  it('sees, changes and counts only its own rows: lists, receipts, phone orders, recurrences, events', async () => {
    expect(rows.kiosk.length + rows.cashier.length + rows.register.length).toBe(7);
    expect(await ownViolations(t.apiUrl, tokens, rows)).toEqual([]);
  }, 240_000);

  it('fails on a planted handler that forgets to filter: the listing, a payment, a creation by key, the stream', async () => {
    const planted = /^(GET \/v1\/payments(\/\d+)?|GET \/v1\/events|POST \/v1\/card-not-present\/recurrences)$/;
    const proxy = await plantedProxy(t.apiUrl, tokens, planted);
    try {
      const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      const found = await ownViolations(url, tokens, rows);
      expect(found.some((f) => f.startsWith('listPayments: cashier sees'))).toBe(true);
      expect(found.some((f) => f.startsWith('listPayments: cashier counts'))).toBe(true);
      expect(found.some((f) => /^getPayment: kiosk on cashier's \d+ got 200/.test(f))).toBe(true);
      expect(
        found.some((f) => f.startsWith("createCardNotPresentRecurrence: kiosk replaying register's key got 2")),
      ).toBe(true);
      expect(found.some((f) => f.startsWith('streamEvents: cashier sees the events of'))).toBe(true);
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  }, 240_000);
});
