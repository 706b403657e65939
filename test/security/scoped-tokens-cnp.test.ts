import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/api/operations.js';
import type { ScreenReach } from '../../src/api/routes.js';
import { reachOf, SCREEN_SCOPES, type ScreenScope } from '../../src/api/scopes.js';
import { CNP_BACKENDS, settledSale, typeCard } from '../helpers/cnp-backends.js';
import { startTestDaemon, type TestDaemon } from '../helpers/daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { bearer, send } from './attacker.js';

/**
 * What each screen's token reaches of every operation, decided here one by one (docs/security.md
 * "Scoped tokens"): an operation added to src/api/operations.ts without a line below fails, so no
 * operation's reach is left to a default nobody chose. The cashier starts payments (card-not-present
 * ones too) and sees its own; removing a saved card and voiding a phone order ask the supervisor's
 * credential besides; it lists the payments it started (its screen's open pre-authorizations), never
 * the others'. The kiosk takes a typed card for one thing only, a subscription kiosk's recurrence (it
 * creates one and reads its own: docs/card-not-present.md); for every other card-not-present route a
 * kiosk's business system calls the local API itself. Then a daemon with `cardNotPresent` shows the
 * decision held: the kiosk is refused every other card-not-present route and reads no recurrence but
 * its own, the cashier reaches the phone order it started and not the cash register's.
 */
type Decided = Partial<Record<ScreenScope, ScreenReach>>;
const BOTH_ANY: Decided = { kiosk: 'any', cashier: 'any' };
const BOTH_OWN: Decided = { kiosk: 'own', cashier: 'own' };
const NONE: Decided = {};
const DECIDED: Record<string, Decided> = {
  createPayment: BOTH_ANY,
  listPayments: { cashier: 'own' },
  getPayment: BOTH_OWN,
  getReceipt: BOTH_OWN,
  answerReceiptQuestion: BOTH_OWN,
  reprintReceipt: BOTH_OWN,
  confirmPayment: NONE,
  undoPayment: NONE,
  cancelPayment: BOTH_OWN,
  createEventTicket: BOTH_ANY,
  streamEvents: BOTH_ANY,
  getHealth: BOTH_ANY,
  getDayReport: NONE,
  closeDay: NONE,
  createVoid: NONE,
  listVoids: NONE,
  getVoid: NONE,
  createCardNotPresentSale: { cashier: 'any' },
  getCardNotPresentSale: { cashier: 'own' },
  captureCardNotPresentSale: { cashier: 'own' },
  voidCardNotPresentSale: { cashier: 'own' },
  saveCardNotPresentCard: { cashier: 'any' },
  listCardNotPresentCards: { cashier: 'any' },
  getCardNotPresentCard: { cashier: 'any' },
  removeCardNotPresentCard: { cashier: 'any' },
  createCardNotPresentRecurrence: { cashier: 'any', kiosk: 'own' },
  getCardNotPresentRecurrence: { cashier: 'own', kiosk: 'own' },
  getMetrics: NONE,
  getOpenApiDocument: NONE,
  getEventStreamDocument: NONE,
  getApiReference: NONE,
};

describe("every operation's reach for a screen's token was decided", () => {
  it('each operation has a line in DECIDED, and its declaration says what that line says', () => {
    const undecided = OPERATIONS.map((o) => o.operationId).filter((id) => !(id in DECIDED));
    expect(undecided, 'operations whose screens reach was never decided (add them to DECIDED)').toEqual([]);
    for (const o of OPERATIONS) {
      const declared = Object.fromEntries(
        SCREEN_SCOPES.flatMap((s) => {
          const reach = reachOf(o.screens, s);
          return reach ? [[s, reach]] : [];
        }),
      );
      expect(declared, o.operationId).toEqual(DECIDED[o.operationId]);
    }
    expect(Object.keys(DECIDED).filter((id) => !OPERATIONS.some((o) => o.operationId === id))).toEqual([]);
  });
});

describe('card-not-present routes on scoped tokens (a daemon with cardNotPresent: ecommerce)', () => {
  const tempDir = useTempDirs();
  const ecommerce = CNP_BACKENDS.find((b) => b.name === 'ecommerce')!;
  let t: TestDaemon;
  let kiosk: string;
  let cashier: string;
  beforeAll(async () => {
    t = await startTestDaemon({ prefix: 'omnipos-sec-cnp-', env: ecommerce.env(tempDir()) });
    kiosk = readFileSync(path.join(t.stateDir, 'kiosk-token'), 'utf8').trim();
    cashier = readFileSync(path.join(t.stateDir, 'cashier-token'), 'utf8').trim();
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
  });

  const sell = async (token: string, key: string) => {
    typeCard(t, ecommerce.approved);
    const r = await send(t.apiUrl, 'POST', '/v1/card-not-present/sales', {
      headers: bearer(token, { 'idempotency-key': key }),
      body: JSON.stringify({ amount: ecommerce.approvedAmount, holder: 'MARIA SILVA', ...ecommerce.body }),
    });
    expect(r.status, r.text).toBe(202);
    return r.json.id as number;
  };
  const settled = (id: number) =>
    settledSale(id, async () => {
      const r = await send(t.apiUrl, 'GET', `/v1/card-not-present/sales/${id}`, { headers: bearer(t.token) });
      return r.json as { state?: unknown };
    });

  it('the cashier starts a phone order and reads it; the kiosk is refused it and every other card-not-present route', async () => {
    const api = t.apiUrl;
    const id = await sell(cashier, 'cashier-phone-1');
    await settled(id);
    const own = await send(api, 'GET', `/v1/card-not-present/sales/${id}`, { headers: bearer(cashier) });
    expect([own.status, own.json.state]).toEqual([200, 'captured']);
    expect((await send(api, 'GET', `/v1/payments/${id}/receipt`, { headers: bearer(cashier) })).status).toBe(200);
    const recurrences = ['createCardNotPresentRecurrence', 'getCardNotPresentRecurrence'];
    for (const o of OPERATIONS.filter((op) => op.tag === 'card-not-present')) {
      const r = await send(api, o.method, o.path.replace('{id}', String(id)), {
        headers: bearer(kiosk),
        body: o.method === 'POST' ? '{}' : '',
      });
      // Its recurrence routes reach only its own: the cashier's sale is 404, an empty body 400.
      const want = !recurrences.includes(o.operationId)
        ? [401, 'UNAUTHORIZED']
        : o.method === 'GET'
          ? [404, 'NOT_FOUND']
          : [400, 'INVALID_FIELD'];
      expect([r.status, r.json.error?.code], `kiosk ${o.operationId}`).toEqual(want);
    }
  });

  it("the cash register's phone order is not the cashier's: 404 on it, its Idempotency-Key taken (422)", async () => {
    const api = t.apiUrl;
    const id = await sell(t.token, 'register-phone-1');
    await settled(id);
    for (const p of [
      `/v1/card-not-present/sales/${id}`,
      `/v1/card-not-present/recurrences/${id}`,
      `/v1/payments/${id}/receipt`,
    ]) {
      const r = await send(api, 'GET', p, { headers: bearer(cashier) });
      expect([r.status, r.json.error?.code], p).toEqual([404, 'NOT_FOUND']);
    }
    for (const p of [`/v1/card-not-present/sales/${id}/capture`, `/v1/card-not-present/sales/${id}/void`])
      expect((await send(api, 'POST', p, { headers: bearer(cashier), body: '{}' })).status, p).toBe(404);
    const again = await send(api, 'POST', '/v1/card-not-present/sales', {
      headers: bearer(cashier, { 'idempotency-key': 'register-phone-1' }),
      body: JSON.stringify({ amount: ecommerce.approvedAmount, holder: 'MARIA SILVA', ...ecommerce.body }),
    });
    expect([again.status, again.json.error?.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    expect(again.text).not.toContain(String(ecommerce.approved.number.slice(-4)));
  });

  it("the kiosk's recurrence: created on its token, read by it, not by the cashier; the register's not by the kiosk", async () => {
    const api = t.apiUrl;
    const create = async (token: string, key: string): Promise<number> => {
      typeCard(t, ecommerce.approved);
      const r = await send(api, 'POST', '/v1/card-not-present/recurrences', {
        headers: bearer(token, { 'idempotency-key': key }),
        body: JSON.stringify({ amount: ecommerce.approvedAmount, holder: 'MARIA SILVA', interval: 'monthly' }),
      });
      expect(r.status, r.text).toBe(202);
      await settled(r.json.id as number);
      return r.json.id as number;
    };
    const kiosks = await create(kiosk, 'kiosk-rec-1');
    const registers = await create(t.token, 'register-rec-1');
    const read = (token: string, id: number) =>
      send(api, 'GET', `/v1/card-not-present/recurrences/${id}`, { headers: bearer(token) });
    expect([(await read(kiosk, kiosks)).status, (await read(kiosk, kiosks)).json.status]).toEqual([200, 'active']);
    expect((await read(cashier, kiosks)).status).toBe(404);
    expect((await read(kiosk, registers)).status).toBe(404);
    for (const p of [`/v1/card-not-present/sales/${kiosks}`, `/v1/payments/${kiosks}`]) {
      const r = await send(api, 'GET', p, { headers: bearer(kiosk) });
      expect(r.status, p).toBe(p.includes('card-not-present') ? 401 : 200);
    }
    const again = await send(api, 'POST', '/v1/card-not-present/recurrences', {
      headers: bearer(kiosk, { 'idempotency-key': 'register-rec-1' }),
      body: JSON.stringify({ amount: ecommerce.approvedAmount, holder: 'MARIA SILVA', interval: 'monthly' }),
    });
    expect([again.status, again.json.error?.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
  });

  it("the cashier's listing holds only the payments it started; the kiosk's token is refused it", async () => {
    const api = t.apiUrl;
    const mine = await sell(cashier, 'cashier-phone-list');
    const theirs = await sell(t.token, 'register-phone-list');
    await settled(mine);
    await settled(theirs);
    const ids = async (token: string, query = '') => {
      const r = await send(api, 'GET', `/v1/payments${query}`, { headers: bearer(token) });
      expect(r.status, r.text).toBe(200);
      return (r.json.payments as { id: number }[]).map((p) => p.id);
    };
    expect(await ids(t.token)).toEqual(expect.arrayContaining([mine, theirs]));
    const status = (await send(api, 'GET', `/v1/payments/${mine}`, { headers: bearer(cashier) })).json.status as string;
    for (const query of ['', `?status=${status}`]) {
      expect(await ids(cashier, query), query).toContain(mine);
      expect(await ids(cashier, query), query).not.toContain(theirs);
    }
    const kioskList = await send(api, 'GET', '/v1/payments', { headers: bearer(kiosk) });
    expect([kioskList.status, kioskList.json.error?.code]).toEqual([401, 'UNAUTHORIZED']);
  });
});
