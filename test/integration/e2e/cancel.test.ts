/**
 * Cancel at every prompt, end to end: the cash register (`POST /v1/payments/{id}/cancel`) and the
 * customer's CANCEL key on the virtual pinpad (its own process on a pty). Each case leaves the
 * journal final — aborted with nothing at the host, or undone when the request had left — and
 * the pinpad idle: the next sale on it is approved.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CardPromptCode } from '../../../src/engine/ports.js';
import { scanForCardData } from '../../helpers/scan-card-data.js';
import { HAS_SOCAT } from '../../helpers/socat.js';
import { startE2e, type E2e } from '../../helpers/e2e.js';
import {
  clearSecrets,
  hostSale,
  present,
  promptsOf,
  sell,
  start,
  testCard,
  type Customer,
} from '../../helpers/sale-kit.js';
import { useTempDirs } from '../../helpers/temp-dir.js';

const STRIPE = testCard('stripe card, PIN 4321');
const ALELO = testCard('alelo voucher');
const MC = testCard('mastercard credit, chip and contactless');

/** The prompt each case waits for, the customer there, and the sale asked for. */
const AT_PROMPTS: [CardPromptCode, string, Customer, Record<string, unknown>][] = [
  ['insert-card', 'no card yet (GCX)', { action: 'nothing' }, { method: 'credit' }],
  ['enter-pin', 'chip PIN screen (GOX)', { lastDigit: 0, via: 'chip', pin: 'nothing' }, { method: 'credit' }],
  ['enter-pin', 'stripe PIN screen (GPN)', { pan: STRIPE.pan, via: 'stripe', pin: 'nothing' }, { method: 'credit' }],
  ['choose-product', 'product menu (MNU)', { pan: ALELO.pan, via: 'chip' }, { method: 'voucher' }],
  ['typed-entry', 'typing the card number (GCD)', {}, { method: 'credit', entry: 'typed' }],
];

/** The customer presses CANCEL at each prompt instead. */
const CUSTOMER_CANCELS: [string, Customer, Record<string, unknown>][] = [
  ['the card prompt (GCX)', { action: 'cancel' }, { method: 'credit' }],
  ['the chip PIN screen (GOX)', { lastDigit: 0, via: 'chip', pin: 'cancel' }, { method: 'credit' }],
  ['the stripe PIN screen (GPN)', { pan: STRIPE.pan, via: 'stripe', pin: 'cancel' }, { method: 'credit' }],
  ['the product menu (MNU)', { pan: ALELO.pan, via: 'chip', keys: ['\x18'] }, { method: 'voucher' }],
  ['typing the card number (GCD)', { keys: ['\x18'] }, { method: 'credit', entry: 'typed' }],
];

describe.skipIf(!HAS_SOCAT)('cancel at every prompt, through the API and on the pinpad', () => {
  const tempDir = useTempDirs();
  let e: E2e;
  let amount = 8000;
  beforeAll(async () => {
    e = await startE2e();
  }, 60_000);
  afterAll(async () => {
    await e?.stop();
  });

  /** The pinpad is idle: a following contactless sale is approved and confirmed. */
  async function nextSaleWorks(): Promise<void> {
    const s = await sell(e, { pan: MC.pan, via: 'contactless' }, { amount: (amount += 100), method: 'credit' });
    expect(s.view.status).toBe('confirmed');
  }

  it.each(AT_PROMPTS)(
    'the cash register cancels at %s (%s): aborted, nothing at the host, the pinpad idle',
    async (prompt, _what, customer, body) => {
      await present(e, customer);
      const s = await start(e, { amount: (amount += 100), ...body });
      await e.waitEvent(
        (x) => x.type === 'prompt' && x.id === s.id && (x as { prompt: string }).prompt === prompt,
        s.since,
      );
      expect((await e.api('POST', `/v1/payments/${s.id}/cancel`)).status).toBe(200);
      const view = await e.waitFinal(s.id);
      expect(view).toMatchObject({ status: 'cancelled', state: 'aborted' });
      expect(e.journal.get(s.id)?.data).toMatchObject({ reason: 'cancelled by ecr' });
      expect(await hostSale(e, s.merchantOrderId)).toBeUndefined();
      expect(promptsOf(e, s.id)).toContain('message: OPERACAO CANCELADA');
      await nextSaleWorks();
    },
  );

  it.each(CUSTOMER_CANCELS)(
    'the customer presses CANCEL at %s: aborted as cancelled by the customer, the pinpad idle',
    async (_what, customer, body) => {
      await present(e, customer);
      const s = await start(e, { amount: (amount += 100), ...body });
      const view = await e.waitFinal(s.id);
      expect(view).toMatchObject({ status: 'cancelled', state: 'aborted' });
      expect(e.journal.get(s.id)?.data).toMatchObject({ reason: 'cancelled by customer' });
      expect(await hostSale(e, s.merchantOrderId)).toBeUndefined();
      await nextSaleWorks();
    },
  );

  it('the cash register cancels while the host decides (processing): the approval that comes back is undone', async () => {
    // the host answers after 800 ms (within the daemon's 1.5 s timeout) and approves
    await e.sandbox.fault('saleCreate', { latencyMs: 800, times: 1 });
    await present(e, { lastDigit: 0, via: 'chip' });
    const s = await start(e, { amount: (amount += 100), method: 'credit' });
    await e.waitEvent(
      (x) => x.type === 'prompt' && x.id === s.id && (x as { prompt: string }).prompt === 'processing',
      s.since,
    );
    await e.waitState(s.id, 'authorizing');
    expect((await e.api('POST', `/v1/payments/${s.id}/cancel`)).status).toBe(200);
    const view = await e.waitFinal(s.id);
    expect(view.status).toBe('undone');
    expect(promptsOf(e, s.id)).toContain('message: OPERACAO CANCELADA');
    expect(await hostSale(e, s.merchantOrderId)).toMatchObject({ status: 2, charged: 0 });
    await nextSaleWorks();
  });

  it('an approved sale awaiting its decision is no longer cancelled (409) but undone on the cash register’s word', async () => {
    await present(e, { lastDigit: 0, via: 'chip' });
    const s = await start(e, { amount: (amount += 100), method: 'credit', confirmation: 'ecr' });
    await e.waitState(s.id, 'awaiting-decision');
    expect(await e.api('POST', `/v1/payments/${s.id}/cancel`)).toMatchObject({
      status: 409,
      body: { error: { code: 'NOT_ALLOWED' } },
    });
    expect((await e.api('POST', `/v1/payments/${s.id}/undo`)).status).toBe(200);
    expect((await e.waitFinal(s.id)).status).toBe('undone');
    expect(await hostSale(e, s.merchantOrderId)).toMatchObject({ charged: 0 });
  });

  it('a second sale while one holds the pinpad is refused as busy (409)', async () => {
    await present(e, { action: 'nothing' });
    const s = await start(e, { amount: (amount += 100), method: 'credit' });
    const second = await e.api('POST', '/v1/payments', { amount: 100, method: 'credit' });
    expect(second).toMatchObject({ status: 409, body: { error: { code: 'BUSY' } } });
    await e.api('POST', `/v1/payments/${s.id}/cancel`);
    expect((await e.waitFinal(s.id)).status).toBe('cancelled');
  });

  it('the scan finds a clear PIN block planted in a file (it can fail)', () => {
    const dir = tempDir('omnipos-scan-');
    writeFileSync(path.join(dir, 'x.log'), `noise ${clearSecrets().at(-1)!} noise`);
    expect(scanForCardData(dir, clearSecrets())).toHaveLength(1);
  });

  it('afterwards, neither the SQLite file (and its WAL) nor the debug log holds a PAN, a track or a clear PIN block', () => {
    expect(scanForCardData(e.stateDir, clearSecrets())).toEqual([]);
  });
});
