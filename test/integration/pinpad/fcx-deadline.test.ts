import { afterEach, describe, expect, it } from 'vitest';
import { DSP } from '../../../drivers/pinpad/index.js';
import { PinpadCardPort } from '../../../src/adapters/pinpad-card.js';
import type { CardRequest } from '../../../src/engine/ports.js';
import { ScriptedPeer, sleep } from './scripted-peer.js';
import { connectPinpad } from '../../helpers/virtual-pinpad.js';

/**
 * FCX has a deadline (ABECS 2.20 §3.7.4): the card port's finishChip against a raw scripted pinpad
 * that ACKs FCX and never answers. The card read is the real PPC930's (transcao_completa_com_scope.txt:
 * GCX lines 242-249, GOX lines 339-349); GTK's answer is written here from §3.3.12.
 */
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

const hexFromLog = (cardType: '03' | '06'): Buffer =>
  Buffer.from(
    '4743583030303130348051000630323031303180' +
      '5B00074352454449544F80600002303080' +
      `4F000230${cardType[1]!.charCodeAt(0).toString(16)}80420018` +
      '4D'.repeat(24) +
      '80520010' +
      '4D'.repeat(16) +
      '805300023030805C0003303736805D0006333130373331',
    'hex',
  );
const GOX_ANSWER = Buffer.from(
  '474F5830303031363380560006323030303030805400959F2608A94958501BC710A29F2701809F10120110A04001220000000000000000000000FF9F37044C72562A9F360201EC950500000000019A032511119C01009F02060000000000015F2A020986820219809F1A0200769F03060000000000009F34031F03029F0607A0000000041010500A4D617374657263617264' +
    '9F3303E008C85F24033107315F3401009F6E0700760000303000',
  'hex',
);
/** GTK (§3.3.12): PP_TRACK2 (8045h, 24 bytes) and PP_TRK2KSN (8048h, 10 bytes). */
const GTK_ANSWER = Buffer.concat([
  Buffer.from('GTK000042', 'latin1'),
  Buffer.of(0x80, 0x45, 0, 24),
  Buffer.alloc(24, 0xa5),
  Buffer.of(0x80, 0x48, 0, 10),
  Buffer.from('FFFFF030331234500001', 'hex'),
]);

async function setup(cardType: '03' | '06') {
  const peer = new ScriptedPeer();
  await peer.start();
  cleanup.push(() => peer.stop());
  peer.script = (cmd, _raw, p) => {
    if (cmd === 'OPN') p.answer('OPN000');
    if (cmd === 'GCX') p.answer(hexFromLog(cardType));
    if (cmd === 'GTK') p.answer(GTK_ANSWER);
    if (cmd === 'GOX') p.answer(GOX_ANSWER);
    if (cmd === 'DSP') p.answer('DSP000');
    if (cmd === 'RMC') p.answer('RMC000');
    // FCX: ACKed, the answer lost
  };
  const pinpad = await connectPinpad(
    { port: peer.port },
    {
      timings: { ackMs: 600, responseMs: 1500, eotMs: 500, interByteMs: 400, silenceMs: 100 },
      probeIntervalMs: 0,
      reconnect: { initialMs: 50, maxMs: 200 },
    },
    cleanup,
  );
  const port = new PinpadCardPort({
    pinpad,
    acquirerIndex: 2,
    pinKeySlot: 1,
    dataKeySlot: 1,
    resolveProduct: () => ({ productId: 1 }),
    finishTimeoutMs: 500,
  });
  const request: CardRequest = {
    merchantOrderId: 'FCX-1',
    amount: 1,
    method: 'credit',
    installments: 1,
    interest: 'ByMerchant',
  };
  const read = await port.readCard(request, new AbortController().signal);
  return { peer, pinpad, port, read };
}

function within<T>(p: Promise<T>, ms = 6000): Promise<T> {
  return Promise.race([p, sleep(ms).then(() => Promise.reject(new Error(`still pending after ${ms} ms`)))]);
}

describe('FCX has a deadline and can be aborted', () => {
  it('a contactless card whose FCX answer is lost: FCX is aborted at its deadline and the host-approved sale stands (§3.7.4 note 2); later commands run', async () => {
    const { peer, pinpad, port, read } = await setup('06');
    expect(read.summary.inputMode).toBe('ContactlessEmv');
    const r = await within(port.finishChip('approved', { emvResponse: '8A023030' }));
    expect(r.card).toBe('approved');
    expect(peer.commands()).toContain('FCX');
    await expect(within(pinpad.run(DSP, ['NEXT', '']))).resolves.toBeUndefined();
  });

  it('a contact chip whose FCX answer is lost: the card session failed (the engine undoes), and later commands run', async () => {
    const { pinpad, port, read } = await setup('03');
    expect(read.summary.inputMode).toBe('Emv');
    const r = await within(port.finishChip('approved', { emvResponse: '8A023030' }));
    expect(r.card).toBe('failed');
    expect(r.reason).toMatch(/deadline/);
    await expect(within(pinpad.run(DSP, ['NEXT', '']))).resolves.toBeUndefined();
  });
});
