/**
 * The sale suite on the classic serial path (issue 19): a pinpad that answers only the classic card
 * commands (GCX/GOX/FCX/GTK… answer ERR010, §2.3.4), behind a real pseudo-terminal, the engine's
 * card port unchanged on `card.ClassicCardPinpad`, the sandbox host deciding. GCR's clear track goes
 * back into the pinpad (EBX) before anything else; a classic pinpad without EBX is refused for sales.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, isPinpadError } from '../../../drivers/pinpad/index.js';
import { loadPinpadKey } from '../../../src/adapters/pinpad-keys.js';
import { cardSim } from '../../../src/sim/pinpad/card/index.js';
import { PinpadCardPort } from '../../../src/adapters/pinpad-card.js';
import { TEST_CARDS } from '../../../tables/test-cards.js';
import { nextOrderId } from '../../helpers/sandbox.js';
import { HAS_SOCAT } from '../../helpers/socat.js';
import { startCardSale, type CardSale } from './card-sale.js';
import { FAST, startRig, type Rig } from '../../helpers/pinpad-rig.js';
import { connectSecurePinpad, startVirtualPinpad } from '../../helpers/virtual-pinpad.js';
import { tempDirForFile } from '../../helpers/temp-dir.js';

describe.skipIf(!HAS_SOCAT)('the card port on a classic-only pinpad (GCR → EBX → GOC → FNC, GPN with the PAN)', () => {
  let rig: Rig;
  let port: PinpadCardPort;
  let sell: CardSale['sell'];
  let stop: CardSale['stop'] | undefined;
  let stripePin = false;

  beforeAll(async () => {
    ({ rig, port, sell, stop } = await startCardSale({
      sim: { profile: { classicOnly: true, classicEbx: true } },
      pinpad: (r, set) =>
        new card.ClassicCardPinpad(r.pinpad, {
          dataKeySlot: 2,
          aidOf: (a, i) => {
            const x = set.tables.aidRecords.find((y) => y.acquirer === a && y.index === i);
            return x ? x.fields.T1_AID?.slice(0, Number(x.fields.T1_AIDLEN) * 2) : undefined;
          },
        }),
      stripePin: () => stripePin,
    }));
  }, 30_000);
  afterAll(async () => {
    await stop?.();
  });
  const received = (): string[] => rig.sim.engine.state.received;

  it('chip: the sandbox decrypts the track (EBX, Dukpt3DesCBC) and checks the PIN (GOC); FNC approves; RMC', async () => {
    rig.choose({ lastDigit: 0, via: 'chip', pin: 'right' });
    const from = received().length;
    const { read, answer } = await sell(1500);
    expect(read.summary).toMatchObject({
      maskedPan: '476173******0060',
      inputMode: 'Emv',
      chip: true,
      authenticationMethod: 'OnlineAuthentication',
      productId: 1,
      brandId: 1,
      expiry: '1230',
    });
    expect(read.card.data).toHaveLength(48);
    expect(answer.Payment.Status).toBe(2);
    const fin = await port.finishChip('approved', { emvResponse: '8A023030' });
    expect(fin.card).toBe('approved');
    expect(fin.emv).toHaveProperty('9F26');
    await port.end('OBRIGADO');
    expect(received().slice(from)).toEqual(expect.arrayContaining(['GTS', 'GCR', 'EBX', 'GOC', 'FNC', 'RMC']));
    expect(received().slice(from)).not.toContain('GOX');
  });

  it('stripe with PIN: GPN carries the PAN GCR gave; the sandbox verifies PIN 4321', async () => {
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
    expect(read.card.track1).toBeDefined();
    expect(read.card.pinBlock).toBeDefined();
    expect(answer.Payment.Status).toBe(2);
    await port.end('OBRIGADO');
  });

  it('contactless under the CVM limit: no PIN, approved', async () => {
    const c = TEST_CARDS.find((x) => x.name.startsWith('mastercard credit, chip'))!;
    rig.choose({ pan: c.pan, via: 'contactless' });
    const { read, answer } = await sell(1500);
    expect(read.summary).toMatchObject({ inputMode: 'ContactlessEmv', authenticationMethod: 'NoPassword' });
    expect(answer.Payment.Status).toBe(2);
    expect((await port.finishChip('approved', {})).card).toBe('approved');
    await port.end('OBRIGADO');
  });

  it('fallback: GCR answers ST_ERRFALLBACK, the swipe comes with GCR_STATCHIP 1 and the sale says IsFallback', async () => {
    rig.choose({ name: 'chip fails', via: 'chip' });
    const { read, req } = await sell(1500);
    expect(read.summary).toMatchObject({ inputMode: 'MagStripe', isFallback: true });
    expect((req.Payment as unknown as { CreditCard: { IsFallback?: boolean } }).CreditCard.IsFallback).toBe(true);
    await port.end('OBRIGADO');
  });

  it('the customer cancels at the card prompt and at the PIN prompt: a cancel by the customer', async () => {
    rig.choose({ action: 'cancel' });
    await expect(
      port.readCard({ merchantOrderId: nextOrderId(), amount: 500, method: 'credit' }, new AbortController().signal),
    ).rejects.toMatchObject({ code: 'ENGINE_CANCELLED', context: { by: 'customer' } });
    rig.choose({ lastDigit: 0, via: 'chip', pin: 'cancel' });
    await expect(
      port.readCard({ merchantOrderId: nextOrderId(), amount: 1500, method: 'credit' }, new AbortController().signal),
    ).rejects.toMatchObject({ code: 'ENGINE_CANCELLED', context: { by: 'customer' } });
    await port.end('CANCELADA');
  });

  it("CKE (§3.3.3): the driver reads the virtual pinpad's swipe event (tracks masked) and a key", async () => {
    const c = TEST_CARDS.find((x) => x.pin === '4321')!;
    rig.choose({ pan: c.pan, via: 'stripe' });
    const r = await rig.pinpad.run(card.CKE, { key: true, stripe: true, chip: 'insert', contactless: false });
    expect(r.event).toBe('stripe');
    if (r.event === 'stripe') {
      expect(r.maskedPan).toMatch(/^\d{8}\*+\d{4}$/);
      r.clear.wipe();
    }
    expect(JSON.stringify(r)).not.toContain(c.pan);
    rig.choose({ action: 'cancel' });
    expect(await rig.pinpad.run(card.CKE, { key: true })).toEqual({ event: 'key', key: '13' });
  });

  it('nothing the driver logged holds a clear PAN or track', () => {
    const all = rig.logs.join('\n');
    for (const c of TEST_CARDS) expect(all).not.toContain(c.pan);
    expect(card.holdsClearPan(all)).toBe(false);
  });
});

describe.skipIf(!HAS_SOCAT)('a classic-only pinpad without EBX', () => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await startRig({ profile: { classicOnly: true } });
  }, 30_000);
  afterAll(async () => {
    await rig?.stop();
  });

  it('is refused for card sales before a card is asked, with the reason named', async () => {
    const port = new PinpadCardPort({
      pinpad: new card.ClassicCardPinpad(rig.pinpad, { dataKeySlot: 2 }),
      acquirerIndex: 3,
      pinKeySlot: 1,
      dataKeySlot: 2,
    });
    rig.choose({ lastDigit: 0, via: 'chip' });
    const e = await port
      .readCard({ merchantOrderId: nextOrderId(), amount: 1500, method: 'credit' }, new AbortController().signal)
      .then(
        () => null,
        (x: unknown) => x as { code: string; message: string },
      );
    expect(e?.code).toBe('PINPAD_UNSUPPORTED');
    expect(e?.message).toMatch(/GCR gives the track in clear.*no EBX/);
    expect(rig.sim.engine.state.received).not.toContain('GCR');
  });
});

describe.skipIf(!HAS_SOCAT)('the secure driver and the obsolete card commands (§3.1.2)', () => {
  const tempDir = tempDirForFile('omnipos-classic-');
  const stops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const s of stops.reverse()) await s();
  });
  let n = 0;
  async function secureOn(profile: { classicOnly?: boolean; classicEbx?: boolean }) {
    const dir = path.join(tempDir, `pinpad-${++n}`);
    mkdirSync(dir);
    const pty = path.join(dir, 'pinpad');
    const sim = await startVirtualPinpad({ tcpPort: 0, ptyPath: pty, profile });
    const pinpad = await connectSecurePinpad({ pty }, loadPinpadKey(path.join(dir, 'state')).key, {
      timings: FAST,
      probeIntervalMs: 0,
    });
    stops.push(async () => {
      await pinpad.close();
      await sim.stop();
    });
    return { sim, pinpad };
  }

  it('a pinpad recognised as obsolete by its OPN answer reads cards through GCR/EBX/GOC (no GCX tried)', async () => {
    const { sim, pinpad } = await secureOn({ classicOnly: true, classicEbx: true });
    expect(pinpad.secure.recognition).toBe('classic');
    const p = new card.ClassicCardPinpad(pinpad, { dataKeySlot: 2 });
    expect(p.classic).toBe(true);
    cardSim(sim.engine.state).deck.choose({ lastDigit: 0, via: 'chip', pin: 'right' });
    const port = new PinpadCardPort({ pinpad: p, acquirerIndex: 3, pinKeySlot: 1, dataKeySlot: 2 });
    const read = await port.readCard(
      { merchantOrderId: nextOrderId(), amount: 1500, method: 'credit' },
      new AbortController().signal,
    );
    expect(read.summary).toMatchObject({
      maskedPan: '476173******0060',
      chip: true,
      authenticationMethod: 'OnlineAuthentication',
    });
    expect(read.card.pinBlock).toBeDefined();
    expect(sim.engine.state.received).not.toContain('GCX');
    expect(sim.engine.state.received).toEqual(expect.arrayContaining(['GCR', 'EBX', 'GOC']));
    await port.end('OBRIGADO');
  });

  it('a current pinpad is never sent an obsolete card command: GCR refused before the wire', async () => {
    const { sim, pinpad } = await secureOn({});
    expect(pinpad.secure.recognition).toBe('abecs');
    const e = await pinpad.run(card.GCR, { again: true }).then(
      () => null,
      (x: unknown) => x,
    );
    expect(isPinpadError(e, 'PINPAD_UNSUPPORTED')).toBe(true);
    expect(sim.engine.state.received).not.toContain('GCR');
  });
});
