import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pinpad } from '../../../drivers/pinpad/index.js';
import { cardNode } from '../../../src/acquirer/omni/sale.js';
import { PinpadCardPort } from '../../../src/adapters/pinpad-card.js';
import type { VirtualPinpad } from '../../../src/sim/pinpad/index.js';
import { cardSim } from '../../../src/sim/pinpad/index.js';
import { TEST_CARDS } from '../../../tables/test-cards.js';
import { FAST, hostDecrypt } from '../../helpers/pinpad-rig.js';
import { connectPinpad, startVirtualPinpad } from '../../helpers/virtual-pinpad.js';

/**
 * Track 1 on a stripe sale (issue 17): the manual's stripe sale carries `TrackOneData` with
 * `EncryptedCardData.TrackOneDataKSN` (Conecta pt page lines 3370 and 3437-3446). The card port
 * asks GTK for track 1 when GCX found one (PP_TRK1INC) and passes its ciphertext and KSN on; the
 * host's keys decrypt it to a track 1 of the card read (format B, its PAN). Over TCP to the
 * virtual pinpad (no socat needed).
 */
describe('a stripe read of a card with a track 1 sends TrackOneData', () => {
  let sim: VirtualPinpad;
  let pinpad: Pinpad;
  let port: PinpadCardPort;

  beforeAll(async () => {
    sim = await startVirtualPinpad({ tcpPort: 0 });
    pinpad = await connectPinpad(
      { port: sim.port },
      {
        timings: FAST,
        probeIntervalMs: 0,
        reconnect: { initialMs: 50, maxMs: 200 },
      },
    );
    port = new PinpadCardPort({
      pinpad,
      acquirerIndex: 3,
      pinKeySlot: 1,
      dataKeySlot: 2,
      resolveProduct: () => ({ productId: 1, brandId: 1, issuerId: 1501 }),
      stripePin: () => false,
    });
  }, 30_000);
  afterAll(async () => {
    await pinpad?.close();
    await sim?.stop();
  });

  it('GTK gives track 1 under its own KSN; the card node carries it beside track 2 and the host decrypts it to the card’s track 1', async () => {
    const c = TEST_CARDS.find((x) => x.serviceCode.startsWith('1') || x.serviceCode.startsWith('5')) ?? TEST_CARDS[0]!;
    const r = cardSim(sim.engine.state).deck.choose({ pan: c.pan, via: 'stripe' });
    expect(r.ok).toBe(true);
    const read = await port.readCard(
      { merchantOrderId: '263290010000001', amount: 1000, method: 'credit' },
      new AbortController().signal,
    );
    await port.end('OK').catch(() => undefined);
    expect(read.summary.inputMode).toBe('MagStripe');
    expect(read.card.track1).toBeDefined();
    const t1 = read.card.track1!;
    expect(t1.ksn).toMatch(/^[0-9A-F]{20}$/);
    const clear = hostDecrypt(t1.data, t1.ksn, read.card.iv).toString('latin1');
    expect(clear).toContain(`B${c.pan}^`);
    const node = cardNode({ summary: read.summary }, read.card);
    expect(node).toMatchObject({
      InputMode: 'MagStripe',
      TrackOneData: t1.data,
      TrackTwoData: read.card.data,
      ExpirationDate: `${c.expiry.slice(2)}/20${c.expiry.slice(0, 2)}`,
    });
    expect(node.EncryptedCardData).toMatchObject({ TrackOneDataKSN: t1.ksn, TrackTwoDataKSN: read.card.ksn });
  });
});
