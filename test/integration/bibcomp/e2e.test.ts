/**
 * Card sales end to end with the pinpad behind a BibComp library (issue 19): the daemon's
 * `pinpad.device` is `{ kind: "bibcomp" }` with the test library (test/fixtures/bibcomp, built with
 * the machine's compiler), which speaks ABECS to the virtual pinpad process over TCP. The driver,
 * its secure channel and the sale path are the ABECS ones: current commands pass whole through the
 * library's generic command.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanForCardData } from '../../helpers/scan-card-data.js';
import { HAS_SOCAT } from '../../helpers/socat.js';
import { startE2e, type E2e } from '../../helpers/e2e.js';
import { clearSecrets, hostSale, promptsOf, sell, start, testCard } from '../../helpers/sale-kit.js';
import { buildBibcomp, setFault } from '../../helpers/bibcomp-build.js';

const STRIPE = testCard('stripe card, PIN 4321');
const MC = testCard('mastercard credit, chip and contactless');

describe.skipIf(!HAS_SOCAT)('card sales through the daemon with the pinpad behind the test BibComp library', () => {
  let e: E2e;
  let library: string;
  beforeAll(async () => {
    library = buildBibcomp();
    e = await startE2e({
      pinpadDevice: ({ tcp }) => ({ kind: 'bibcomp', library, port: `127.0.0.1:${tcp}`, callTimeoutMs: 2000 }),
    });
  }, 90_000);
  afterAll(async () => {
    if (library) setFault(library, 'none');
    await e?.stop();
  });

  const untilConnected = async (): Promise<void> => {
    const end = Date.now() + 30_000;
    while (e.daemon.pinpad.pinpad.status !== 'connected') {
      if (Date.now() > end) throw new Error(`timed out waiting for the pinpad (${e.daemon.pinpad.pinpad.status})`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const received = async (id: string): Promise<number> =>
    ((await e.sim.control({ cmd: 'state' })).received as string[]).filter((x) => x === id).length;
  const untilReceived = async (id: string, count: number): Promise<void> => {
    const end = Date.now() + 30_000;
    while ((await received(id)) < count) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${id} at the pinpad`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  it('chip with PIN: confirmed, charged once, the prompts as the ABECS driver gives them, PAN masked', async () => {
    const s = await sell(e, { lastDigit: 0, via: 'chip' }, { amount: 1000, method: 'credit' }, 60_000);
    expect(s.view).toMatchObject({
      status: 'confirmed',
      card: { maskedPan: '476173******0060', inputMode: 'Emv', productId: 1 },
    });
    expect(s.host).toMatchObject({ status: 2, confirmationStatus: 1, charged: 1000 });
    expect(promptsOf(e, s.id)).toEqual([
      'insert-card: APROXIME, INSIRA OU PASSE CARTAO',
      'enter-pin: DIGITE A SENHA',
      'processing: PROCESSANDO',
      'message: APROVADA',
      'remove-card: RETIRE O CARTAO',
    ]);
    // the card commands reached the pinpad through the library (its only client is the library's socket)
    expect((await e.sim.control({ cmd: 'state' })).received).toEqual(
      expect.arrayContaining(['OPN', 'GCX', 'GOX', 'FCX', 'RMC']),
    );
  }, 90_000);

  it('contactless and stripe with PIN through the library', async () => {
    const c = await sell(e, { pan: MC.pan, via: 'contactless' }, { amount: 1500, method: 'credit' }, 60_000);
    expect(c.view).toMatchObject({ status: 'confirmed', card: { inputMode: 'ContactlessEmv' } });
    const s = await sell(e, { pan: STRIPE.pan, via: 'stripe' }, { amount: 2500, method: 'credit' }, 60_000);
    expect(s.view).toMatchObject({ status: 'confirmed', card: { inputMode: 'MagStripe', productId: 80 } });
    expect(promptsOf(e, s.id)).toContain('enter-pin: DIGITE A SENHA');
  }, 120_000);

  it('fallback, typed entry (GCD, EBX) and the customer cancelling at the PIN screen, through the library', async () => {
    const f = await sell(e, { name: 'chip fails', via: 'chip' }, { amount: 1600, method: 'credit' }, 60_000);
    expect(f.view).toMatchObject({ status: 'confirmed', card: { inputMode: 'MagStripe' } });
    expect(promptsOf(e, f.id)).toContain('insert-card: PASSE O CARTAO');
    const card0 = testCard('sandbox card ending 0');
    const t = await sell(
      e,
      { keys: [card0.pan, '12', '30'] },
      { amount: 1700, method: 'credit', entry: 'typed' },
      60_000,
    );
    expect(t.view).toMatchObject({ status: 'confirmed', card: { inputMode: 'Typed' } });
    const p = await sell(e, { lastDigit: 0, via: 'chip', pin: 'cancel' }, { amount: 1750, method: 'credit' }, 60_000);
    expect(p.view).toMatchObject({ status: 'cancelled' });
    expect(p.host).toBeUndefined();
  }, 150_000);

  it('the cash register cancels at the card prompt: aborted, nothing at the host', async () => {
    const r = await e.api('POST', '/v1/payments', { amount: 1200, method: 'credit' });
    await e.sim.control({
      cmd: 'card',
      choice: { action: 'nothing', pin: 'right', declineAfterApproval: false, removeEarly: 'no' },
    });
    expect(r.status).toBe(202);
    const id = Number(r.body.id);
    await e.waitEvent(
      (x) => x.type === 'prompt' && x.id === id && (x as { prompt: string }).prompt === 'insert-card',
      0,
      30_000,
    );
    expect((await e.api('POST', `/v1/payments/${id}/cancel`)).status).toBe(200);
    const view = await e.waitFinal(id, 60_000);
    expect(view).toMatchObject({ status: 'cancelled', state: 'aborted' });
  }, 90_000);

  it('a library call that answers an error code: the sale fails clearly, nothing at the host; the next sale goes through', async () => {
    setFault(library, 'error');
    const s = await sell(e, { lastDigit: 0, via: 'chip' }, { amount: 1300, method: 'credit' }, 60_000);
    setFault(library, 'none');
    expect(s.view).toMatchObject({ status: 'cancelled', state: 'aborted' });
    expect(String(e.daemon.journal.get(s.id)?.data.reason)).toMatch(/link is down|disconnected/);
    expect(s.host).toBeUndefined();
    await untilConnected();
    const next = await sell(e, { lastDigit: 0, via: 'chip' }, { amount: 1310, method: 'credit' }, 60_000);
    expect(next.view).toMatchObject({ status: 'confirmed' });
  }, 120_000);

  it('a library that never leaves PPCOMP_PROCESSING: the cash register cancels (PP_Abort), the sale ends aborted, nothing at the host', async () => {
    const gcx = await received('GCX');
    // the customer does nothing; once GCX is at the pinpad the library stops delivering anything (PROCESSING for ever)
    await e.sim.control({
      cmd: 'card',
      choice: { action: 'nothing', pin: 'right', declineAfterApproval: false, removeEarly: 'no' },
    });
    const r = await e.api('POST', '/v1/payments', { amount: 1400, method: 'credit' });
    expect(r.status).toBe(202);
    const id = Number(r.body.id);
    await untilReceived('GCX', gcx + 1);
    setFault(library, 'stuck');
    const cans = Number((await e.sim.control({ cmd: 'state' })).cans);
    expect((await e.api('POST', `/v1/payments/${id}/cancel`)).status).toBe(200);
    // the cancel reached the pinpad as CAN through PP_Abort while the library was stuck
    const end = Date.now() + 30_000;
    while (Number((await e.sim.control({ cmd: 'state' })).cans) <= cans) {
      if (Date.now() > end) throw new Error('no CAN at the pinpad');
      await new Promise((r) => setTimeout(r, 50));
    }
    // (the commands that end the sale, RMC and the idle message, would each wait the 10 s of §2.2.2 while stuck)
    setFault(library, 'none');
    const view = await e.waitFinal(id, 60_000);
    expect(view).toMatchObject({ status: 'cancelled', state: 'aborted' });
    expect(await hostSale(e, String(r.body.merchantOrderId))).toBeUndefined();
    await untilConnected();
    const next = await sell(e, { lastDigit: 0, via: 'chip' }, { amount: 1410, method: 'credit' }, 60_000);
    expect(next.view).toMatchObject({ status: 'confirmed' });
  }, 120_000);

  it('the journal, the database and the logs hold no clear card data nor PIN blocks', () => {
    expect(scanForCardData(e.stateDir, clearSecrets())).toEqual([]);
    expect(scanForCardData(e.stateDir, ['"TrackTwoData"', 'EncryptedPinBlock', '"PinBlock"', '"CardNumber"'])).toEqual(
      [],
    );
  });

  it('a library whose call never returns: the sale fails clearly, the daemon stays up and answers (the bridge stays wedged until a restart)', async () => {
    await e.sim.control({
      cmd: 'card',
      choice: { lastDigit: 0, via: 'chip', pin: 'right', declineAfterApproval: false, removeEarly: 'no' },
    });
    setFault(library, 'block');
    const s = await start(e, { amount: 1500, method: 'credit' });
    const view = await e.waitFinal(s.id, 60_000);
    expect(view).toMatchObject({ status: 'cancelled', state: 'aborted' });
    expect(await hostSale(e, s.merchantOrderId)).toBeUndefined();
    expect((await e.api('GET', `/v1/payments/${s.id}`)).status).toBe(200);
    const log = readFileSync(e.logFile, 'utf8');
    expect(log).toMatch(/bibcomp library call did not return/);
    setFault(library, 'none');
  }, 120_000);
});
