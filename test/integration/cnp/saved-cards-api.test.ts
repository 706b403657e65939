import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogger } from '../../helpers/capture-log.js';
import {
  CNP_BACKENDS,
  declaredUnder,
  secretsOf,
  settledSale,
  typeCard,
  type CnpBackend,
} from '../../helpers/cnp-backends.js';
import { documentedApi, type TestDaemon } from '../../helpers/documented-api.js';
import { scanForCardData } from '../../helpers/scan-card-data.js';
import { useTempDirs } from '../../helpers/temp-dir.js';

/**
 * Saved cards through the local API, end to end on the embedded default with each backend: a card
 * saved alone (typed on the pinpad), listed and read (masked number, brand, backend: never the
 * token), a sale by it and a pre-authorization by it captured in part, a phone order that saves its
 * card, the removal with the supervisor. Every answer is checked against the OpenAPI document, and
 * every answer the document declares for these routes is produced here; afterwards neither the typed
 * card nor any token is in clear in the state directory, the logs or an answer.
 */
const tempDir = useTempDirs();
const json = (v: unknown): string => JSON.stringify(v);
const CARDS = '/v1/card-not-present/cards';
const CARD = '/v1/card-not-present/cards/{id}';
const SALES = '/v1/card-not-present/sales';
const SALE = '/v1/card-not-present/sales/{id}';
const CAPTURE = '/v1/card-not-present/sales/{id}/capture';
const seen = new Set<string>();

/** A fault on the embedded sandbox's next request of a route (its controls listener). */
async function fault(t: TestDaemon, spec: Record<string, unknown>): Promise<void> {
  const r = await fetch(`${t.sandbox.url}/sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(spec),
  });
  expect(r.status).toBe(200);
}
let paths: ReturnType<ReturnType<typeof documentedApi>['paths']> = {};

function savedCards(b: CnpBackend) {
  describe(`saved cards on ${b.name}`, () => {
    const api = documentedApi();
    const logs = captureLogger('debug');
    const answers: string[] = [];
    const tokens: string[] = [];
    let t: TestDaemon;
    let supervisor: string;
    beforeAll(async () => {
      t = await api.start({ env: b.env(tempDir()), log: logs.log });
      supervisor = readFileSync(path.join(t.stateDir, 'supervisor-token'), 'utf8').trim();
    }, 120_000);
    afterAll(async () => {
      for (const s of api.seen) seen.add(s);
      paths = api.paths();
      await api.stop();
    });

    const hit = async (route: string, url: string, c: Parameters<typeof api.hit>[2] = {}) => {
      const r = await api.hit(route, url, c);
      answers.push(json(r.body));
      return r;
    };
    const save = (body: unknown, key?: string) =>
      hit(CARDS, CARDS, { method: 'POST', body: json(body), ...(key ? { headers: { 'idempotency-key': key } } : {}) });
    const settled = (id: unknown) => settledSale(id, async () => (await hit(SALE, `${SALES}/${String(id)}`)).body);
    const tokenOf = (id: number): string => t.savedCards.reveal(id)!.token;
    let cardId: number;

    it('a card saved alone: typed on the pinpad, 201 with its masked number; the same key answers it again', async () => {
      typeCard(t, b.approved);
      const saved = await save({ holder: 'ANA SILVA', ...b.body }, `${b.name}-card-1`);
      expect(saved).toMatchObject({ status: 201, body: { backend: b.name } });
      expect(saved.body.maskedPan).toMatch(b.masked);
      expect(saved.body).not.toHaveProperty('token');
      cardId = saved.body.id as number;
      tokens.push(tokenOf(cardId));
      // Nothing typed: the same card again; with another brand, 422.
      expect(await save({ holder: 'ANA SILVA', ...b.body }, `${b.name}-card-1`)).toMatchObject({
        status: 200,
        body: { id: cardId },
      });
      expect((await save({ holder: 'ANA SILVA', brand: 'Elo' }, `${b.name}-card-1`)).status).toBe(422);
    });

    it('listed and read by masked number, brand and backend, never the token', async () => {
      const list = await hit(CARDS, CARDS);
      expect(list.status).toBe(200);
      expect(list.body.cards).toEqual([
        expect.objectContaining({ id: cardId, backend: b.name, maskedPan: expect.stringMatching(b.masked) }),
      ]);
      expect(await hit(CARD, `${CARDS}/${cardId}`)).toMatchObject({ status: 200, body: { id: cardId } });
      expect((await hit(CARD, `${CARDS}/999999`)).status).toBe(404);
    });

    it('a sale by the saved card (nothing typed), and a pre-authorization by it captured in part', async () => {
      const sale = await hit(SALES, SALES, {
        method: 'POST',
        body: json({ amount: b.approvedAmount, savedCardId: cardId }),
      });
      expect(sale).toMatchObject({ status: 202, body: { savedCardId: cardId } });
      expect(await settled(sale.body.id)).toMatchObject({ state: 'captured', savedCardId: cardId });
      const pre = await hit(SALES, SALES, {
        method: 'POST',
        body: json({ amount: b.approvedAmount, savedCardId: cardId, capture: false }),
        headers: { 'idempotency-key': `${b.name}-pre-1` },
      });
      expect(await settled(pre.body.id)).toMatchObject({ state: 'authorized', capture: false });
      // The same key with another saved card (or none): another request.
      expect(
        (
          await hit(SALES, SALES, {
            method: 'POST',
            body: json({ amount: b.approvedAmount, savedCardId: cardId + 1, capture: false }),
            headers: { 'idempotency-key': `${b.name}-pre-1` },
          })
        ).status,
      ).toBe(422);
      const part = Math.round(b.approvedAmount * 0.6);
      const captured = await hit(CAPTURE, CAPTURE.replace('{id}', String(pre.body.id)), {
        method: 'POST',
        body: json({ amount: part }),
      });
      expect(captured).toMatchObject({ status: 200, body: { state: 'captured', capturedAmount: part } });
    });

    it('a phone order that saves its card: kept once approved (savedCardId), not when declined', async () => {
      typeCard(t, b.approved);
      const sale = await hit(SALES, SALES, {
        method: 'POST',
        body: json({ amount: b.approvedAmount, holder: 'ANA SILVA', saveCard: true, ...b.body }),
      });
      const done = await settled(sale.body.id);
      expect(done).toMatchObject({ state: 'captured', saveCard: true, savedCardId: expect.any(Number) });
      tokens.push(tokenOf(done.savedCardId as number));
      typeCard(t, b.declined.card);
      const declined = await hit(SALES, SALES, {
        method: 'POST',
        body: json({ amount: b.declined.amount, holder: 'ANA SILVA', saveCard: true, ...b.body }),
      });
      const no = await settled(declined.body.id);
      expect(no).toMatchObject({ state: 'declined' });
      expect(no).not.toHaveProperty('savedCardId');
    });

    it('refused before anything is typed or sent: the card fields at fault, an unknown saved card', async () => {
      for (const [body, field] of [
        [{ amount: 100, savedCardId: cardId, holder: 'ANA' }, 'holder'],
        [{ amount: 100, savedCardId: cardId, brand: 'Visa' }, 'brand'],
        [{ amount: 100, savedCardId: cardId, saveCard: true }, 'saveCard'],
        [{ amount: 100, savedCardId: 999_999 }, 'savedCardId'],
        [{ amount: 100 }, 'holder'],
      ] as const)
        expect(await hit(SALES, SALES, { method: 'POST', body: json(body) }), json(body)).toMatchObject({
          status: 400,
          body: { error: { code: 'INVALID_FIELD', field } },
        });
      expect(await save({ brand: 'Visa' })).toMatchObject({ status: 400, body: { error: { field: 'holder' } } });
      expect((await save({ holder: 'ANA', number: '4111111111111111' })).body).toMatchObject({
        error: { field: 'number' },
      });
      expect((await hit(CARDS, CARDS, { method: 'POST', body: '{', type: 'application/json' })).status).toBe(400);
      expect(
        (await hit(CARDS, CARDS, { method: 'POST', body: json({ holder: 'A' }), type: 'text/plain' })).status,
      ).toBe(415);
      expect((await save({ holder: 'x'.repeat(70_000) })).status).toBe(413);
      // The customer presses CANCEL: nothing saved.
      typeCard(t, ['\x18']);
      expect((await save({ holder: 'ANA', ...b.body })).body).toMatchObject({
        error: { code: 'CNP_TYPING_CANCELLED' },
      });
      typeCard(t, ['4111111111111112']);
      expect((await save({ holder: 'ANA', ...b.body })).body).toMatchObject({ error: { code: 'CNP_CARD_REFUSED' } });
      if (b.name === 'ecommerce') {
        // The host refuses it (126, a published code: 422), or its answer is lost (504): nothing kept either way.
        const kept = t.savedCards.list().length;
        await fault(t, { route: 'ecommerceCardSave', error: 126 });
        typeCard(t, b.approved);
        expect((await save({ holder: 'ANA', ...b.body })).body).toMatchObject({ error: { code: 'CNP_HOST_REFUSED' } });
        await fault(t, { route: 'ecommerceCardSave', status: 503 });
        typeCard(t, b.approved);
        expect(await save({ holder: 'ANA', ...b.body })).toMatchObject({
          status: 504,
          body: { error: { code: 'ACQUIRER_UNKNOWN_OUTCOME' } },
        });
        expect(t.savedCards.list().length).toBe(kept);
      }
      for (const [route, url, method] of [
        [CARDS, CARDS, 'POST'],
        [CARDS, CARDS, 'GET'],
        [CARD, `${CARDS}/1`, 'GET'],
        [CARD, `${CARDS}/1`, 'DELETE'],
      ] as const) {
        expect((await hit(route, url, { method, token: 'nope' })).status).toBe(401);
        expect((await hit(route, url, { method, headers: { host: 'evil.example' } })).status).toBe(421);
      }
    });

    it('removed with the supervisor: gone from the list, the disk and the sales', async () => {
      const at = `${CARDS}/${cardId}`;
      expect(await hit(CARD, at, { method: 'DELETE' })).toMatchObject({
        status: 403,
        body: { error: { code: 'SUPERVISOR_REQUIRED' } },
      });
      expect(
        (await hit(CARD, at, { method: 'DELETE', body: '{}', headers: { 'x-supervisor-token': supervisor } })).status,
      ).toBe(400);
      const removed = await hit(CARD, at, { method: 'DELETE', headers: { 'x-supervisor-token': supervisor } });
      expect(removed).toMatchObject({ status: 200, body: { id: cardId, backend: b.name } });
      expect((await hit(CARD, at, { method: 'DELETE', headers: { 'x-supervisor-token': supervisor } })).status).toBe(
        404,
      );
      expect((await hit(CARDS, CARDS)).body.cards).not.toContainEqual(expect.objectContaining({ id: cardId }));
      expect(
        (await hit(SALES, SALES, { method: 'POST', body: json({ amount: b.approvedAmount, savedCardId: cardId }) }))
          .body,
      ).toMatchObject({ error: { code: 'INVALID_FIELD', field: 'savedCardId' } });
    });

    it('no typed card and no token in clear in the state directory, the logs or the answers', async () => {
      await t.stopDaemon().catch(() => undefined);
      const secrets = [...secretsOf(b.approved), ...secretsOf(b.declined.card), ...tokens];
      expect(tokens.length).toBe(2);
      // `sandbox/` is the embedded acquirer's own database: the host keeps its tokens, as a real one does.
      expect(scanForCardData(t.stateDir, secrets, ['sandbox'])).toEqual([]);
      for (const s of secrets) {
        expect(logs.output()).not.toContain(s);
        expect(answers.join('\n')).not.toContain(s);
      }
    });
  });
}

for (const b of CNP_BACKENDS) savedCards(b);

describe('without cardNotPresent', () => {
  const api = documentedApi();
  beforeAll(() => api.start(), 120_000);
  afterAll(async () => {
    for (const s of api.seen) seen.add(s);
    await api.stop();
  });

  it('the saved cards answer 409 NOT_AVAILABLE', async () => {
    for (const [route, url, method] of [
      [CARDS, CARDS, 'GET'],
      [CARD, `${CARDS}/1`, 'GET'],
      [CARD, `${CARDS}/1`, 'DELETE'],
      [CARDS, CARDS, 'POST'],
    ] as const)
      expect(
        await api.hit(route, url, { method, ...(method === 'POST' ? { body: json({ holder: 'ANA' }) } : {}) }),
      ).toMatchObject({ status: 409, body: { error: { code: 'NOT_AVAILABLE' } } });
  });
});

describe('the document', () => {
  it('left nothing it declares for the saved cards unproduced (but the 503s of the pinpad, the disk and the BIN lookup)', () => {
    const declared = declaredUnder(paths, CARDS);
    expect(declared.length).toBeGreaterThanOrEqual(20);
    expect(declared.filter((d) => !seen.has(d) && !d.endsWith(' 503')).sort()).toEqual([]);
  });
});
