import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { encodeResponse } from '../../../drivers/pinpad/index.js';
import { TcpTransport } from '../../../drivers/transport/index.js';
import { openPinpad, type PinpadDevice } from '../../../src/adapters/pinpad-device.js';
import { PinpadQrDisplay } from '../../../src/adapters/pinpad-image.js';
import { EcommercePixAdapter } from '../../../src/acquirer/omni/pix.js';
import { loadConfig } from '../../../src/config/index.js';
import { PixEngine, type PixEvent } from '../../../src/engine/pix/engine.js';
import type { QrEvent } from '../../../src/engine/qr/engine.js';
import { parsePadraoq, parsePix } from '../../../src/qr/index.js';
import type { VirtualPinpad } from '../../../src/sim/pinpad/index.js';
import { cardSim, type VirtualPinpadOptions } from '../../../src/sim/pinpad/index.js';
import { decodePng } from '../../helpers/png-decode.js';
import { decodeQrRgba } from '../../helpers/qr-decode.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { useTempStores } from '../../helpers/store.js';
import { log, startHarness, type Harness } from '../../helpers/sandbox.js';
import { ownerDeps, qrTerminal } from '../../helpers/qr-terminal.js';
import { startVirtualPinpad } from '../../helpers/virtual-pinpad.js';

const tempDir = useTempDirs();
const tempStore = useTempStores();
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

/** The virtual pinpad on loopback TCP and the daemon's pinpad (secure channel) on it. */
async function rig(
  options: VirtualPinpadOptions = {},
): Promise<{ sim: VirtualPinpad; device: PinpadDevice; display: PinpadQrDisplay; stop(): Promise<void> }> {
  const sim = await startVirtualPinpad({ tcpPort: 0, ...options });
  const config = loadConfig({ env: { OMNIPOS_CONFIG: '', OMNIPOS_STATE_DIR: tempDir() } });
  const device = await openPinpad(
    config,
    () => undefined,
    log,
    () => new TcpTransport({ host: '127.0.0.1', port: sim.port }),
  );
  const display = new PinpadQrDisplay(device.pinpad, log);
  return {
    sim,
    device,
    display,
    stop: async () => {
      await device.close();
      await sim.stop();
    },
  };
}

/** What the pinpad holds under the file name, decoded as a person's phone would (PNG → jsQR). */
function decodedImage(sim: VirtualPinpad, name = 'QRCODE01'): string | undefined {
  const file = cardSim(sim.engine.state).media.files.get(name);
  if (!file) return undefined;
  const { width, height, rgba } = decodePng(file.data);
  return decodeQrRgba(rgba, width, height);
}

async function until(f: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!f()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const s of stops.splice(0)) await s();
});

describe('the QR code on the pinpad display (MLI/MLR/MLE, DSI) during a wallet QR or Pix sale', () => {
  it('a wallet QR sale loads its code as a PNG and shows it; the image the pinpad received decodes to the exact code string', async () => {
    const r = await rig();
    stops.push(r.stop);
    const { db, engine, events } = qrTerminal(h, tempDir(), { ordinal: 4, display: r.display });
    const { entry, done } = await engine.start({
      amount: 6610,
      method: 'credit',
      installments: 1,
      interest: 'ByMerchant',
      confirmation: 'auto',
    });
    const shown = events.find((e) => e.type === 'qr') as Extract<QrEvent, { type: 'qr' }>;
    await until(() => r.sim.engine.state.display[0] === '[image QRCODE01]');
    expect(decodedImage(r.sim)).toBe(shown.qrCode);
    expect(parsePadraoq(shown.qrCode).qrcode_data.transaction_amount).toBe('66.10');
    const sent = r.sim.engine.state.received;
    expect(sent.filter((c) => ['MLI', 'MLR', 'MLE', 'DSI'].includes(c)).filter((c, i, a) => c !== a[i - 1])).toEqual([
      'MLI',
      'MLR',
      'MLE',
      'DSI',
    ]);
    // The sale ends (cancelled here): the display is cleared.
    await engine.cancel(entry.id, 'ecr');
    await done;
    await until(() => r.sim.engine.state.display.join('').trim() === '');
    db.close();
  });

  it('a Pix sale shows its BR Code the same way', async () => {
    const r = await rig();
    stops.push(r.stop);
    const db = tempStore();
    const events: PixEvent[] = [];
    const engine = new PixEngine({
      ...ownerDeps(db, 5),
      host: new EcommercePixAdapter(h.acquirer.ecommerce!),
      display: r.display,
      onEvent: (e) => void events.push(e),
    });
    const { entry, done } = await engine.start({
      amount: 6710,
      payer: { name: 'Maria da Silva', document: '52998224725' },
      confirmation: 'auto',
    });
    await until(() => events.some((e) => e.type === 'qr'));
    const shown = events.find((e) => e.type === 'qr') as Extract<PixEvent, { type: 'qr' }>;
    await until(() => r.sim.engine.state.display[0] === '[image QRCODE01]');
    expect(decodedImage(r.sim)).toBe(shown.qrCode);
    expect(parsePix(shown.qrCode).transactionAmount).toBe('67.10');
    await engine.cancel(entry.id, 'ecr');
    await done;
    db.close();
  });

  it('a pinpad without image support (MLI answers ERR 010) gets a text pointing at the screen instead, and no file', async () => {
    const r = await rig({ handlers: new Map([['MLI', () => encodeResponse('MLI', 10)]]) });
    stops.push(r.stop);
    expect(await r.display.show('00020101021226760014br.com.padraoq', { kind: 'wallet-qr', amount: 1234 })).toBe(
      'text',
    );
    expect(r.sim.engine.state.display).toEqual(['R$ 12,34', 'PAGUE COM QR CODE', 'NA TELA DO CAIXA']);
    expect(cardSim(r.sim.engine.state).media.files.size).toBe(0);
  });

  it('a classic pinpad (no images, no DEX) gets the two-line DSP text', async () => {
    const r = await rig({
      handlers: new Map([
        ['MLI', () => encodeResponse('MLI', 10)],
        ['DEX', () => encodeResponse('DEX', 10)],
      ]),
    });
    stops.push(r.stop);
    expect(await r.display.show('00020101021226760014br.com.padraoq', { kind: 'pix', amount: 990 })).toBe('text');
    expect(r.sim.engine.state.display.map((l) => l.trim())).toEqual(['PIX R$ 9,90', 'VEJA A TELA']);
  });
});
