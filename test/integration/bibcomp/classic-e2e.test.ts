/**
 * Card sales through the daemon with a pinpad that answers only the classic card commands (issue
 * 19): a serial pinpad (the virtual pinpad `--classic --classic-ebx` behind a pty: GCR, EBX, GOC,
 * FNC, GPN with the PAN). The journal, database and logs hold no clear card data. (A pinpad behind a
 * BibComp library: e2e.test.ts beside this file.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanForCardData } from '../../helpers/scan-card-data.js';
import { startE2e, type E2e } from '../../helpers/e2e.js';
import { clearSecrets, hostSale, present, promptsOf, sell, start, testCard } from '../../helpers/sale-kit.js';
import { HAS_SOCAT } from '../../helpers/socat.js';

const STRIPE = testCard('stripe card, PIN 4321');
const MC = testCard('mastercard credit, chip and contactless');

const received = async (e: E2e): Promise<string[]> => (await e.sim.control({ cmd: 'state' })).received as string[];

describe.skipIf(!HAS_SOCAT)('the sale suite on the classic serial path', () => {
  let e: E2e;
  beforeAll(async () => {
    e = await startE2e({ simArgs: ['--classic', '--classic-ebx'] });
  }, 90_000);
  afterAll(async () => {
    await e?.stop();
  });

  it('chip with PIN: GCR, EBX, GOC, FNC — confirmed, charged once, PAN masked', async () => {
    const s = await sell(e, { lastDigit: 0, via: 'chip' }, { amount: 1000, method: 'credit' }, 60_000);
    expect(s.view).toMatchObject({
      status: 'confirmed',
      card: { maskedPan: '476173******0060', inputMode: 'Emv', productId: 1 },
    });
    expect(s.host).toMatchObject({ status: 2, confirmationStatus: 1, charged: 1000 });
    expect(promptsOf(e, s.id)).toContain('enter-pin: DIGITE A SENHA');
    const r = await received(e);
    expect(r).toEqual(expect.arrayContaining(['GCR', 'EBX', 'GOC', 'FNC', 'RMC']));
    expect(r).not.toContain('GCX');
  }, 90_000);

  it('contactless, and stripe with PIN (GPN with the PAN from GCR)', async () => {
    const c = await sell(e, { pan: MC.pan, via: 'contactless' }, { amount: 1500, method: 'credit' }, 60_000);
    expect(c.view).toMatchObject({ status: 'confirmed', card: { inputMode: 'ContactlessEmv' } });
    const s = await sell(e, { pan: STRIPE.pan, via: 'stripe' }, { amount: 2500, method: 'credit' }, 60_000);
    expect(s.view).toMatchObject({ status: 'confirmed', card: { inputMode: 'MagStripe', productId: 80 } });
    expect(promptsOf(e, s.id)).toContain('enter-pin: DIGITE A SENHA');
    expect(await received(e)).toContain('GPN');
  }, 120_000);

  it('fallback: the chip fails (ST_ERRFALLBACK), the swipe goes with IsFallback', async () => {
    const s = await sell(e, { name: 'chip fails', via: 'chip' }, { amount: 1600, method: 'credit' }, 60_000);
    expect(s.view).toMatchObject({ status: 'confirmed', card: { inputMode: 'MagStripe' } });
    expect(promptsOf(e, s.id)).toContain('insert-card: PASSE O CARTAO');
    expect(JSON.stringify(e.daemon.journal.get(s.id)?.data)).toMatch(/"isFallback":true/);
  }, 90_000);

  it('the customer cancels at the PIN screen; the cash register cancels at the card prompt: aborted, nothing at the host', async () => {
    const p = await sell(e, { lastDigit: 0, via: 'chip', pin: 'cancel' }, { amount: 1700, method: 'credit' }, 60_000);
    expect(p.view).toMatchObject({ status: 'cancelled' });
    expect(p.host).toBeUndefined();
    await present(e, { action: 'nothing' });
    const s = await start(e, { amount: 1800, method: 'credit' });
    await e.waitEvent(
      (x) => x.type === 'prompt' && x.id === s.id && (x as { prompt: string }).prompt === 'insert-card',
      s.since,
      30_000,
    );
    expect((await e.api('POST', `/v1/payments/${s.id}/cancel`)).status).toBe(200);
    expect(await e.waitFinal(s.id, 60_000)).toMatchObject({ status: 'cancelled', state: 'aborted' });
    expect(await hostSale(e, s.merchantOrderId)).toBeUndefined();
  }, 120_000);

  it('typed entry: a classic pinpad has no GCD; the sale ends without reaching the host', async () => {
    const s = await sell(
      e,
      { keys: [STRIPE.pan, '12', '30'] },
      { amount: 1900, method: 'credit', entry: 'typed' },
      60_000,
    );
    expect(s.view.status).not.toBe('confirmed');
    expect(s.host).toBeUndefined();
  }, 90_000);

  it('the journal, the database and the logs hold no clear card data nor PIN blocks', () => {
    expect(scanForCardData(e.stateDir, clearSecrets())).toEqual([]);
    expect(scanForCardData(e.stateDir, ['"TrackTwoData"', 'EncryptedPinBlock', '"PinBlock"', '"CardNumber"'])).toEqual(
      [],
    );
  });
});
