/**
 * Card sales end to end through the daemon's API: the virtual pinpad as its own process on a
 * pseudo-terminal, the sandbox host on loopback, SQLite files. Every product, every input mode
 * the virtual pinpad offers, PIN right and wrong, the card declining or pulled out, typed entry
 * where the tables allow it (test/unit/acquirer/omni/outcomes.test.ts has the sandbox's outcomes and confirmation).
 */
import { statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanForCardData } from '../../helpers/scan-card-data.js';
import { HAS_SOCAT } from '../../helpers/socat.js';
import { E2E_TIMING_SCALE, startE2e, type E2e } from '../../helpers/e2e.js';
import { clearSecrets, promptsOf, sell, testCard } from '../../helpers/sale-kit.js';

const STRIPE = testCard('stripe card, PIN 4321');
const MC = testCard('mastercard credit, chip and contactless');
const VISA_DEBIT = testCard('visa debit (electron)');
const ALELO = testCard('alelo voucher');
const CARD0 = testCard('ending 0');

describe.skipIf(!HAS_SOCAT)('card sales through the API, the virtual pinpad on a pty and the sandbox host', () => {
  let e: E2e;
  beforeAll(async () => {
    e = await startE2e();
  }, 60_000);
  afterAll(async () => {
    await e?.stop();
  });

  it("the virtual pinpad answers in a PPC930's times at the rigs' scale (docs/pinpad.md)", async () => {
    const state = (await e.sim.control({ cmd: 'state' })) as { timing?: unknown };
    expect(state.timing).toEqual({ name: 'ppc930', scale: E2E_TIMING_SCALE });
  });

  describe('every product', () => {
    it('credit, cash, chip with PIN: confirmed, charged once; the prompts came as events in order', async () => {
      const s = await sell(e, { lastDigit: 0, via: 'chip' }, { amount: 1000, method: 'credit' });
      expect(s.view).toMatchObject({
        status: 'confirmed',
        installments: 1,
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
      // each prompt carries the sale's ids
      expect(e.events.find((x) => x.type === 'prompt' && x.id === s.id)).toMatchObject({
        merchantOrderId: s.merchantOrderId,
        kind: 'sale',
      });
    });

    it('credit in installments financed by the store (ByMerchant, 3)', async () => {
      const s = await sell(
        e,
        { pan: MC.pan, via: 'chip' },
        { amount: 30000, method: 'credit', installments: 3, interest: 'ByMerchant' },
      );
      expect(s.view).toMatchObject({
        status: 'confirmed',
        installments: 3,
        interest: 'ByMerchant',
        card: { productId: 80 },
      });
      expect(s.host?.charged).toBe(30000);
    });

    it('credit in installments financed by the card company (ByIssuer, 6), contactless', async () => {
      const s = await sell(
        e,
        { pan: MC.pan, via: 'contactless' },
        { amount: 6000, method: 'credit', installments: 6, interest: 'ByIssuer' },
      );
      expect(s.view).toMatchObject({
        status: 'confirmed',
        installments: 6,
        interest: 'ByIssuer',
        card: { inputMode: 'ContactlessEmv' },
      });
    });

    it('installments the tables do not allow (debit in 3) end before anything is sent', async () => {
      const s = await sell(e, { pan: VISA_DEBIT.pan, via: 'chip' }, { amount: 3000, method: 'debit', installments: 3 });
      expect(s.view).toMatchObject({ status: 'refused', state: 'refused', refusal: 'installments-not-allowed' });
      expect(s.host).toBeUndefined();
    });

    it('debit, chip with PIN', async () => {
      const s = await sell(e, { pan: VISA_DEBIT.pan, via: 'chip' }, { amount: 2000, method: 'debit' });
      expect(s.view).toMatchObject({ status: 'confirmed', card: { productId: 2, maskedPan: '476173******0060' } });
      expect(s.host?.charged).toBe(2000);
    });

    it('voucher: the card carries two voucher products, the customer chooses on the pinpad (MNU) and the choice is the ProductId', async () => {
      const s = await sell(e, { pan: ALELO.pan, via: 'chip', keys: ['2'] }, { amount: 4500, method: 'voucher' });
      expect(s.view).toMatchObject({ status: 'confirmed', method: 'voucher', card: { productId: 201, brandId: 20 } });
      expect(promptsOf(e, s.id)).toContain('choose-product: ESCOLHA O PRODUTO');
      expect(s.host?.charged).toBe(4500);
      const first = await sell(e, { pan: ALELO.pan, via: 'chip', keys: ['1'] }, { amount: 4600, method: 'voucher' });
      expect(first.view).toMatchObject({ status: 'confirmed', card: { productId: 200 } });
    });
  });

  describe('every input mode', () => {
    it('stripe with the PIN the tables ask for (GPN before GTK)', async () => {
      const s = await sell(e, { pan: STRIPE.pan, via: 'stripe' }, { amount: 2500, method: 'credit' });
      expect(s.view).toMatchObject({ status: 'confirmed', card: { inputMode: 'MagStripe', productId: 80 } });
      expect(promptsOf(e, s.id)).toContain('enter-pin: DIGITE A SENHA');
    });

    it('debit by stripe (Maestro product of the same BIN), PIN verified by the host', async () => {
      const s = await sell(e, { pan: STRIPE.pan, via: 'stripe' }, { amount: 2600, method: 'debit' });
      expect(s.view).toMatchObject({ status: 'confirmed', card: { inputMode: 'MagStripe', productId: 81 } });
    });

    it('a chip card swiped without a chip failure is sent to the chip (nothing sent)', async () => {
      const s = await sell(e, { lastDigit: 0, via: 'stripe' }, { amount: 2700, method: 'credit' });
      expect(s.view).toMatchObject({ status: 'refused', refusal: 'use-chip' });
      expect(s.host).toBeUndefined();
    });

    it('contactless chip under the CVM limit: no PIN', async () => {
      const s = await sell(e, { pan: MC.pan, via: 'contactless' }, { amount: 1500, method: 'credit' });
      expect(s.view).toMatchObject({ status: 'confirmed', card: { inputMode: 'ContactlessEmv' } });
      expect(promptsOf(e, s.id).some((p) => p.startsWith('enter-pin'))).toBe(false);
    });

    it('contactless in magnetic-stripe mode (card type 05): track 2 sent as ContactlessMagStripe, no PIN asked', async () => {
      const s = await sell(e, { pan: MC.pan, via: 'contactless-stripe' }, { amount: 1550, method: 'credit' });
      expect(s.view).toMatchObject({ status: 'confirmed', card: { inputMode: 'ContactlessMagStripe', productId: 80 } });
      expect(promptsOf(e, s.id).some((p) => p.startsWith('enter-pin'))).toBe(false);
    });

    it('debit on a phone (contactless): "follow the phone" comes as a prompt, the phone verifies the customer', async () => {
      const s = await sell(
        e,
        { name: 'maestro debit on a phone', via: 'contactless' },
        { amount: 1560, method: 'debit' },
      );
      expect(s.view).toMatchObject({ status: 'confirmed', card: { inputMode: 'ContactlessEmv', productId: 81 } });
      expect(promptsOf(e, s.id)).toContain('see-phone: SIGA INSTRUCOES NO TELEFONE');
    });

    it('a contactless card that approves offline is not taken: the customer inserts it and the chip goes online', async () => {
      const s = await sell(e, { name: 'approves offline', via: 'contactless' }, { amount: 1570, method: 'credit' });
      expect(s.view).toMatchObject({ status: 'confirmed', card: { inputMode: 'Emv', maskedPan: '411111******0030' } });
      expect(promptsOf(e, s.id)).toContain('insert-card: INSIRA O CARTAO');
    });

    it('fallback: the chip fails, the stripe is read and sent with IsFallback', async () => {
      const s = await sell(e, { name: 'chip fails', via: 'chip' }, { amount: 1600, method: 'credit' });
      expect(s.view).toMatchObject({ status: 'confirmed', card: { inputMode: 'MagStripe' } });
      expect(promptsOf(e, s.id)).toContain('insert-card: PASSE O CARTAO');
    });

    it('typed on the pinpad (GCD, EBX) where the tables allow it: the host decrypts the number', async () => {
      const s = await sell(e, { keys: [CARD0.pan, '12', '30'] }, { amount: 1700, method: 'credit', entry: 'typed' });
      expect(s.view).toMatchObject({
        status: 'confirmed',
        card: { inputMode: 'Typed', productId: 1, maskedPan: '476173******0060' },
      });
      expect(promptsOf(e, s.id)).toEqual([
        'typed-entry: DIGITE NÚMERO DO CARTÃO',
        'typed-entry: DIGITE O MÊS (MM)',
        'typed-entry: DIGITE O ANO (AA)',
        'processing: PROCESSANDO',
        'message: APROVADA',
      ]);
      expect(s.host?.charged).toBe(1700);
    });

    it('a typed number with a wrong check digit ends before anything is encrypted or sent', async () => {
      const typo = `${CARD0.pan.slice(0, -1)}${(Number(CARD0.pan.at(-1)) + 1) % 10}`;
      const s = await sell(e, { keys: [typo, '12', '30'] }, { amount: 1750, method: 'credit', entry: 'typed' });
      expect(s.view).toMatchObject({ status: 'refused', state: 'refused', refusal: 'invalid-card-number' });
      expect(String(e.journal.get(s.id)?.data.reason)).toMatch(/check digit/);
      expect(s.host).toBeUndefined();
    });

    it('typed entry where the tables forbid it: 409 before anything starts (debit, voucher)', async () => {
      for (const method of ['debit', 'voucher']) {
        const r = await e.api('POST', '/v1/payments', { amount: 1800, method, entry: 'typed' });
        expect(r.status).toBe(409);
        expect(r.body).toMatchObject({ error: { code: 'TYPING_NOT_ALLOWED', field: 'entry' } });
      }
      expect((await e.api('POST', '/v1/payments', { amount: 1800, method: 'pix', entry: 'typed' })).status).toBe(400);
    });
  });

  describe('PIN and the card', () => {
    it('a wrong PIN: the host declines (55)', async () => {
      const s = await sell(e, { lastDigit: 0, via: 'chip', pin: '9999' }, { amount: 5100, method: 'credit' });
      expect(s.view).toMatchObject({ status: 'declined', returnCode: '55' });
      expect(s.host?.charged).toBe(0);
    });

    it('a wrong PIN on the stripe (GPN): declined', async () => {
      const s = await sell(e, { pan: STRIPE.pan, via: 'stripe', pin: '1111' }, { amount: 5200, method: 'credit' });
      expect(s.view).toMatchObject({ status: 'declined', returnCode: '55' });
    });

    it('the chip declines after the online approval: undone with the card’s EMV data', async () => {
      const s = await sell(
        e,
        { lastDigit: 0, via: 'chip', declineAfterApproval: true },
        { amount: 5300, method: 'credit' },
      );
      expect(s.view.status).toBe('undone');
      expect(promptsOf(e, s.id)).toContain('message: NAO AUTORIZADA');
      expect(s.host).toMatchObject({ status: 2, charged: 0 });
    });

    it('the card pulled out before FCX (host approved): undone', async () => {
      const s = await sell(
        e,
        { lastDigit: 0, via: 'chip', removeEarly: 'before-fcx' },
        { amount: 5400, method: 'credit' },
      );
      expect(s.view.status).toBe('undone');
      expect(s.host).toMatchObject({ charged: 0 });
    });

    it('the card pulled out at the PIN screen: aborted, nothing at the host', async () => {
      const s = await sell(e, { lastDigit: 0, via: 'chip', removeEarly: 'at-pin' }, { amount: 5500, method: 'credit' });
      expect(s.view).toMatchObject({ status: 'cancelled', state: 'aborted' });
      expect(s.host).toBeUndefined();
    });
  });

  it('every event the stream carried, prompts included, conforms to the OpenAPI Event schema', () => {
    const prompts = e.events.filter((x) => x.type === 'prompt');
    expect(new Set(prompts.map((x) => (x as { prompt: string }).prompt))).toEqual(
      new Set([
        'insert-card',
        'see-phone',
        'enter-pin',
        'choose-product',
        'typed-entry',
        'processing',
        'message',
        'remove-card',
      ]),
    );
    // Each event's fit to `Event` is the contract hook's (test/setup/contract.ts), as it came on the stream.
    expect(e.events.length).toBeGreaterThan(0);
  });

  it('afterwards, neither the SQLite file (and its WAL) nor the debug log holds a PAN, a track or a clear PIN block', () => {
    expect(statSync(e.logFile).size).toBeGreaterThan(0);
    expect(scanForCardData(e.stateDir, clearSecrets())).toEqual([]);
    // nor the encrypted card data or PIN blocks (sensitive authentication data is not stored, PCI DSS 3.3.1)
    expect(scanForCardData(e.stateDir, ['"TrackTwoData"', 'EncryptedPinBlock', '"PinBlock"', '"CardNumber"'])).toEqual(
      [],
    );
  });
});
