import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PinpadCardPort, productResolver } from '../../../src/adapters/pinpad-card.js';
import type { TableSet } from '../../../src/initialization/index.js';
import { TEST_CARDS } from '../../../tables/test-cards.js';
import { nextOrderId, type Harness } from '../../helpers/sandbox.js';
import { HAS_SOCAT } from '../../helpers/socat.js';
import { startCardSale, type CardSale } from './card-sale.js';
import type { Rig } from '../../helpers/pinpad-rig.js';

describe.skipIf(!HAS_SOCAT)(
  'PinpadCardPort: the engine’s card port on the driver, the virtual pinpad and the sandbox host',
  () => {
    let rig: Rig;
    let h: Harness;
    let port: PinpadCardPort;
    let set: TableSet;
    let sell: CardSale['sell'];
    let stop: CardSale['stop'] | undefined;
    let stripePin = false;
    const alarms: object[] = [];

    beforeAll(async () => {
      ({ rig, h, port, set, sell, stop } = await startCardSale({
        stripePin: () => stripePin,
        log: { warn: (obj) => void alarms.push(obj) },
      }));
    }, 30_000);
    afterAll(async () => {
      await stop?.();
    });

    it('a chip sale the sandbox approves: it decrypts the track and checks the PIN; FCX, confirmation with the card’s EMV data, RMC', async () => {
      rig.choose({ lastDigit: 0, via: 'chip', pin: 'right' });
      const { read, answer } = await sell(1500);
      expect(read.summary).toMatchObject({
        maskedPan: '476173******0060',
        inputMode: 'Emv',
        chip: true,
        isFallback: false,
        authenticationMethod: 'OnlineAuthentication',
        productId: 1,
        brandId: 1,
        issuerId: 1010,
        expiry: '1230',
        panSequenceNumber: '01',
      });
      expect(read.card).toMatchObject({ kind: 'track2', isTlv: false });
      expect(read.card.data).toHaveLength(48);
      expect(answer.Payment.Status).toBe(2);
      const fin = await port.finishChip('approved', { emvResponse: '8A023030' });
      expect(fin.card).toBe('approved');
      for (const t of ['95', '9F10', '9F26', '9F27', '9F37']) expect(fin.emv).toHaveProperty(t);
      const emvHex = Object.entries(fin.emv!)
        .filter(([t]) => ['95', '9F10', '9F26', '9F27', '9F37'].includes(t))
        .map(([t, v]) => `${t}${(v.length / 2).toString(16).padStart(2, '0').toUpperCase()}${v}`)
        .join('');
      await expect(h.acquirer.omni.confirmSale(answer.Payment.PaymentId, { EmvData: emvHex })).resolves.toBeDefined();
      await port.end('OBRIGADO');
      expect(rig.sim.engine.state.display[0]).toBe('OBRIGADO');
    });

    it('a wrong PIN typed on the pinpad: the sandbox declines', async () => {
      rig.choose({ lastDigit: 0, via: 'chip', pin: '9999' });
      const { answer } = await sell(1500);
      expect(answer.Payment.Status).not.toBe(2);
      await port.finishChip('declined', {});
      await port.end('NEGADA');
    });

    it('stripe with PIN (GCX → GPN → GTK): the sandbox verifies PIN 4321', async () => {
      const c = TEST_CARDS.find((x) => x.pin === '4321')!;
      rig.choose({ pan: c.pan, via: 'stripe', pin: 'right' });
      stripePin = true;
      const { read, answer } = await sell(2500);
      stripePin = false;
      expect(read.summary).toMatchObject({
        inputMode: 'MagStripe',
        chip: false,
        authenticationMethod: 'OnlineAuthentication',
        productId: 80,
      });
      expect(read.card.pinBlock).toBeDefined();
      expect(answer.Payment.Status).toBe(2);
    });

    it('contactless under the CVM limit: no PIN, approved', async () => {
      const c = TEST_CARDS.find((x) => x.name.startsWith('mastercard credit, chip'))!;
      rig.choose({ pan: c.pan, via: 'contactless' });
      const { read, answer } = await sell(1500);
      expect(read.summary).toMatchObject({
        inputMode: 'ContactlessEmv',
        authenticationMethod: 'NoPassword',
        productId: 80,
      });
      expect(read.card.pinBlock).toBeUndefined();
      expect(answer.Payment.Status).toBe(2);
      expect((await port.finishChip('approved', {})).card).toBe('approved');
    });

    it('fallback: the chip fails, the stripe read is sent with IsFallback', async () => {
      rig.choose({ name: 'chip fails', via: 'chip' });
      const { read, req } = await sell(1500);
      expect(read.summary).toMatchObject({ inputMode: 'MagStripe', isFallback: true });
      expect((req.Payment as unknown as { CreditCard: { IsFallback?: boolean } }).CreditCard.IsFallback).toBe(true);
    });

    it('a contactless offline approval is refused as a failed read: an alarm, and the card read again by its chip ("insert the card")', async () => {
      rig.choose({ name: 'approves offline', via: 'contactless' });
      const prompts: string[] = [];
      const read = await port.readCard(
        { merchantOrderId: nextOrderId(), amount: 500, method: 'credit' },
        new AbortController().signal,
        (p) => prompts.push(`${p.prompt}: ${p.text}`),
      );
      expect(alarms).toEqual([{ alarm: 'contactless-offline-approval', maskedPan: '411111******0030' }]);
      expect(read.summary).toMatchObject({ inputMode: 'Emv', chip: true, maskedPan: '411111******0030' });
      expect(prompts).toContain('insert-card: INSIRA O CARTAO');
      await port.finishChip('declined', {});
      await port.end('CANCELADA');
    });

    it('a card left in the reader: RMC is given up after the timeout (CAN), the message shown, the pinpad free', async () => {
      const quick = new PinpadCardPort({
        pinpad: rig.pinpad,
        acquirerIndex: 3,
        pinKeySlot: 1,
        dataKeySlot: 2,
        resolveProduct: productResolver(set),
        timeoutS: 1,
      });
      rig.choose({ lastDigit: 0, via: 'chip', pin: 'right', leavesCard: true });
      await quick.readCard(
        { merchantOrderId: nextOrderId(), amount: 1500, method: 'credit' },
        new AbortController().signal,
      );
      await quick.finishChip('declined', {});
      const t0 = Date.now();
      const prompts: string[] = [];
      await expect(quick.end('NAO AUTORIZADA', (p) => prompts.push(p.prompt))).rejects.toMatchObject({
        code: 'PINPAD_CANCELLED',
      });
      expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
      expect(prompts).toEqual(['message', 'remove-card']);
      rig.choose({ leavesCard: false });
      rig.choose({ action: 'cancel' });
      await expect(
        quick.readCard({ merchantOrderId: nextOrderId(), amount: 500, method: 'credit' }, new AbortController().signal),
      ).rejects.toMatchObject({ code: 'ENGINE_CANCELLED' });
    });

    it('the customer cancels: readCard rejects as a cancel by the customer (the pinpad’s ST_CANCEL)', async () => {
      rig.choose({ action: 'cancel' });
      await expect(
        port.readCard({ merchantOrderId: nextOrderId(), amount: 500, method: 'credit' }, new AbortController().signal),
      ).rejects.toMatchObject({ code: 'ENGINE_CANCELLED', context: { by: 'customer', status: 13 } });
    });
  },
);
