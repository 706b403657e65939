/**
 * Card sales through the daemon with the pinpad behind a BibComp library: `pinpad.device` is
 * `{ kind: "bibcomp" }` with the test library (test/fixtures/bibcomp: exactly the public PPCOMP.H,
 * built with the machine's compiler), which speaks ABECS to the virtual pinpad process over TCP.
 * Through PPCOMP.H's NUL-terminated generic command no Abecs command and no secure channel cross
 * (drivers/bibcomp/reach.ts), so the specification gives no way to have the card data encrypted by
 * the pinpad's DUKPT key: every card sale — chip, contactless, stripe — and typed entry is refused
 * by name, with that reason, before a card is asked; nothing reaches the host and the daemon answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARD_SALE_REFUSAL } from '../../../drivers/bibcomp/index.js';
import { scanForCardData } from '../../helpers/scan-card-data.js';
import { HAS_SOCAT } from '../../helpers/socat.js';
import { startE2e, type E2e } from '../../helpers/e2e.js';
import { clearSecrets, sell, testCard } from '../../helpers/sale-kit.js';
import { buildBibcomp } from '../../helpers/bibcomp-build.js';

const STRIPE = testCard('stripe card, PIN 4321');
const MC = testCard('mastercard credit, chip and contactless');

describe.skipIf(!HAS_SOCAT)('card sales through the daemon with the pinpad behind the test BibComp library', () => {
  let e: E2e;
  beforeAll(async () => {
    const library = buildBibcomp();
    e = await startE2e({
      pinpadDevice: ({ tcp }) => ({ kind: 'bibcomp', library, port: `127.0.0.1:${tcp}`, callTimeoutMs: 2000 }),
    });
  }, 90_000);
  afterAll(async () => {
    await e?.stop();
  });

  const received = async (): Promise<string[]> => (await e.sim.control({ cmd: 'state' })).received as string[];

  it('the pinpad is up through the library: the daemon connected, the idle display went as text', async () => {
    const end = Date.now() + 30_000;
    while (e.pinpadLink.status !== 'connected') {
      if (Date.now() > end) throw new Error(`timed out waiting for the pinpad (${e.pinpadLink.status})`);
      await new Promise((r) => setTimeout(r, 50));
    }
    // OPN is the library's (PP_Open): only classic commands reached the pinpad
    expect((await received()).filter((id) => !['GIN', 'DSP', 'DEX', 'CLO', 'GTS', 'RMC'].includes(id))).toEqual([]);
  }, 60_000);

  it("chip, contactless and stripe sales are refused by name with the specification's reason, before any card is asked", async () => {
    const sales = [
      await sell(e, { lastDigit: 0, via: 'chip' }, { amount: 1000, method: 'credit' }, 60_000),
      await sell(e, { pan: MC.pan, via: 'contactless' }, { amount: 1500, method: 'credit' }, 60_000),
      await sell(e, { pan: STRIPE.pan, via: 'stripe' }, { amount: 2500, method: 'credit' }, 60_000),
    ];
    for (const s of sales) {
      expect(s.view.status).not.toBe('confirmed');
      expect(s.host).toBeUndefined();
      const reason = String(e.journal.get(s.id)?.data.reason);
      expect(reason).toContain(CARD_SALE_REFUSAL);
      expect(reason).toMatch(/DUKPT/);
      expect((await e.api('GET', `/v1/payments/${s.id}`)).status).toBe(200);
    }
    expect(await received()).not.toContain('GCR');
    expect(await received()).not.toContain('GCX');
  }, 150_000);

  it('typed entry is refused by name at the request: the number would be typed on GCD and encrypted by EBX, Abecs commands', async () => {
    const r = await e.api('POST', '/v1/payments', { amount: 1700, method: 'credit', entry: 'typed' });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({
      error: { code: 'TYPING_NOT_ALLOWED', message: expect.stringMatching(/typed card number needs GCD \(§3\.3\.8\)/) },
    });
    expect(await received()).not.toContain('GCD');
  }, 90_000);

  it('the journal, the database and the logs hold no clear card data nor PIN blocks', () => {
    expect(scanForCardData(e.stateDir, clearSecrets())).toEqual([]);
    expect(scanForCardData(e.stateDir, ['"TrackTwoData"', 'EncryptedPinBlock', '"PinBlock"', '"CardNumber"'])).toEqual(
      [],
    );
  });
});
