import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CNP_BACKENDS, declaredUnder, secretsOf, settledSale, typeCard } from '../../helpers/cnp-backends.js';
import { documentedApi, type TestDaemon } from '../../helpers/documented-api.js';
import { scanForCardData } from '../../helpers/scan-card-data.js';
import { useTempDirs } from '../../helpers/temp-dir.js';

/**
 * A recurrence created at a kiosk and its status, through the local API, end to end on the embedded
 * default: on the e-commerce API its first charge is a sale with `RecurrentPayment` (the card typed
 * on the pinpad, or a saved card) and its status the host's query (ecom:5928-6052); the webservice
 * 1.5 schedules none, and both routes refuse it by name before anything is typed. Every answer is
 * checked against the document, and every answer it declares for these routes is produced here.
 */
const tempDir = useTempDirs();
const json = (v: unknown): string => JSON.stringify(v);
const RECURRENCES = '/v1/card-not-present/recurrences';
const RECURRENCE = '/v1/card-not-present/recurrences/{id}';
const SALES = '/v1/card-not-present/sales';
const seen = new Set<string>();
let paths: ReturnType<ReturnType<typeof documentedApi>['paths']> = {};
const [ecommerce, webservice15] = CNP_BACKENDS as [(typeof CNP_BACKENDS)[0], (typeof CNP_BACKENDS)[0]];

/** A daemon with the routes' answers checked and recorded into `seen`. */
function daemon(env: () => Record<string, string>) {
  const api = documentedApi();
  const state: { t?: TestDaemon } = {};
  beforeAll(async () => {
    state.t = await api.start({ env: env() });
  }, 120_000);
  afterAll(async () => {
    for (const s of api.seen) seen.add(s);
    paths = api.paths();
    await api.stop();
  });
  const t = (): TestDaemon => state.t as TestDaemon;
  const create = (body: unknown, key?: string) =>
    api.hit(RECURRENCES, RECURRENCES, {
      method: 'POST',
      body: json(body),
      ...(key ? { headers: { 'idempotency-key': key } } : {}),
    });
  const read = (id: unknown) => api.hit(RECURRENCE, `${RECURRENCES}/${String(id)}`);
  const settled = (id: unknown) =>
    settledSale(id, async () => (await api.hit('/v1/card-not-present/sales/{id}', `${SALES}/${String(id)}`)).body);
  return { api, t, create, read, settled };
}

async function fault(t: TestDaemon, spec: Record<string, unknown>): Promise<void> {
  const r = await fetch(`${t.sandbox.url}/sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(spec),
  });
  expect(r.status).toBe(200);
}

describe('a recurrence on the e-commerce API', () => {
  const d = daemon(() => ecommerce.env(tempDir()));
  const body = { amount: 4990, holder: 'ANA SILVA', interval: 'monthly', endDate: '2030-12-31' };

  it('created with its first charge typed on the pinpad; its status read from the host', async () => {
    typeCard(d.t(), ecommerce.approved);
    const created = await d.create(body, 'gym-1');
    expect(created).toMatchObject({
      status: 202,
      body: { capture: true, installments: 1, recurrence: { interval: 'monthly', endDate: '2030-12-31' } },
    });
    const id = created.body.id as number;
    const sale = await d.settled(id);
    expect(sale).toMatchObject({ state: 'captured', recurrenceId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const status = await d.read(id);
    expect(status).toMatchObject({
      status: 200,
      body: { id, recurrentPaymentId: sale.recurrenceId, status: 'active', interval: 'monthly' },
    });
    // The same key: the same first charge, nothing typed; another request under it: 422.
    expect(await d.create(body, 'gym-1')).toMatchObject({ status: 200, body: { id } });
    expect((await d.create({ ...body, interval: 'annual' }, 'gym-1')).status).toBe(422);
  });

  it('created by a saved card, nothing typed', async () => {
    const saved = await d.t().daemon.cnpEngine!.saveCard({
      number: ecommerce.approved.number,
      holder: 'ANA SILVA',
      expiry: `${ecommerce.approved.month}/${ecommerce.approved.year}`,
      brand: 'Visa',
    });
    expect(saved.kind).toBe('saved');
    const savedCardId = saved.kind === 'saved' ? saved.card.id : 0;
    const created = await d.create({ amount: 4990, savedCardId, interval: 'quarterly' });
    expect(created.status).toBe(202);
    expect(await d.settled(created.body.id)).toMatchObject({ state: 'captured', savedCardId });
    expect((await d.read(created.body.id)).body).toMatchObject({ status: 'active', interval: 'quarterly' });
  });

  it('what opened none, or is none: 409 for a declined first charge, 404 for a plain sale or no sale', async () => {
    typeCard(d.t(), ecommerce.declined.card);
    const declined = await d.create(body);
    expect(await d.settled(declined.body.id)).toMatchObject({ state: 'declined' });
    expect(await d.read(declined.body.id)).toMatchObject({ status: 409, body: { error: { code: 'NOT_ALLOWED' } } });
    typeCard(d.t(), ecommerce.approved);
    const plain = await d.api.hit(SALES, SALES, { method: 'POST', body: json({ amount: 100, holder: 'ANA' }) });
    await d.settled(plain.body.id);
    expect((await d.read(plain.body.id)).status).toBe(404);
    expect((await d.read(999_999)).status).toBe(404);
  });

  it("the host's query: a recurrence it does not know (168: 404), a query unanswered (503)", async () => {
    typeCard(d.t(), ecommerce.approved);
    const created = await d.create(body);
    await d.settled(created.body.id);
    await fault(d.t(), { route: 'ecommerceRecurrentGet', error: 168, errorStatus: 404 });
    expect((await d.read(created.body.id)).status).toBe(404);
    // A query is repeated by the client (safe to repeat): the host fails every try.
    await fault(d.t(), { route: 'ecommerceRecurrentGet', status: 503, times: 10 });
    expect(await d.read(created.body.id)).toMatchObject({
      status: 503,
      body: { error: { code: 'ACQUIRER_UNREACHABLE' } },
    });
    await fetch(`${d.t().sandbox.url}/sandbox/faults`, { method: 'DELETE' });
    expect((await d.read(created.body.id)).status).toBe(200);
  });

  it('refused before anything is typed or sent: the fields at fault, the typing cancelled, a wrong check digit', async () => {
    for (const [b, field] of [
      [{ amount: 100, holder: 'ANA' }, 'interval'],
      [{ amount: 100, holder: 'ANA', interval: 'weekly' }, 'interval'],
      [{ ...body, endDate: '31/12/2030' }, 'endDate'],
      [{ ...body, installments: 2 }, 'installments'],
      [{ ...body, savedCardId: 1 }, 'holder'],
      [{ amount: 100, interval: 'monthly' }, 'holder'],
    ] as const)
      expect(await d.create(b), json(b)).toMatchObject({ status: 400, body: { error: { field } } });
    const call = (c: Parameters<typeof d.api.hit>[2]) => d.api.hit(RECURRENCES, RECURRENCES, c);
    expect((await call({ method: 'POST', body: json(body), type: 'text/plain' })).status).toBe(415);
    expect((await call({ method: 'POST', body: json({ ...body, holder: 'x'.repeat(70_000) }) })).status).toBe(413);
    expect((await call({ method: 'POST', body: json(body), token: null })).status).toBe(401);
    expect((await d.api.hit(RECURRENCE, `${RECURRENCES}/1`, { token: 'nope' })).status).toBe(401);
    for (const [route, url, method] of [
      [RECURRENCES, RECURRENCES, 'POST'],
      [RECURRENCE, `${RECURRENCES}/1`, 'GET'],
    ] as const)
      expect((await d.api.hit(route, url, { method, headers: { host: 'evil.example' } })).status).toBe(421);
    typeCard(d.t(), ['\x18']);
    expect((await d.create(body)).body).toMatchObject({ error: { code: 'CNP_TYPING_CANCELLED' } });
    typeCard(d.t(), ['4111111111111112']);
    expect(await d.create(body)).toMatchObject({ status: 422, body: { error: { code: 'CNP_CARD_REFUSED' } } });
  });

  it('no typed number, expiry or security code at rest', async () => {
    await d
      .t()
      .daemon.stop()
      .catch(() => undefined);
    const secrets = [...secretsOf(ecommerce.approved), ...secretsOf(ecommerce.declined.card)];
    expect(scanForCardData(d.t().stateDir, secrets, ['sandbox'])).toEqual([]);
  });
});

describe('the webservice 1.5: no recurrence scheduled by the host', () => {
  const d = daemon(() => webservice15.env(tempDir()));

  it('both routes refuse it by name (501 CNP_NOT_OFFERED) before anything is typed', async () => {
    const created = await d.create({ amount: 1000, holder: 'ANA', brand: 'Visa', interval: 'monthly' });
    expect(created).toMatchObject({ status: 501, body: { error: { code: 'CNP_NOT_OFFERED' } } });
    expect(await d.read(1)).toMatchObject({ status: 501, body: { error: { code: 'CNP_NOT_OFFERED' } } });
    expect(d.t().journal.list({ limit: 5 })).toEqual([]);
  });
});

describe('without cardNotPresent', () => {
  const d = daemon(() => ({}));

  it('both routes answer 409 NOT_AVAILABLE', async () => {
    expect((await d.create({ amount: 100, holder: 'ANA', interval: 'monthly' })).body).toMatchObject({
      error: { code: 'NOT_AVAILABLE' },
    });
    expect((await d.read(1)).body).toMatchObject({ error: { code: 'NOT_AVAILABLE' } });
  });
});

describe('the document', () => {
  it('left nothing it declares for the recurrences unproduced (but the 503s of the pinpad, the disk and the BIN lookup)', () => {
    const declared = declaredUnder(paths, RECURRENCES);
    expect(declared.length).toBeGreaterThanOrEqual(15);
    const unproduced = declared.filter((d) => !seen.has(d) && !(d.startsWith('POST') && d.endsWith(' 503')));
    expect(unproduced.sort()).toEqual([]);
  });
});
