import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Pinpad } from '../../drivers/pinpad/index.js';
import { isPinpadError, type DriverLogger } from '../../drivers/pinpad/index.js';
import type { VirtualPinpad } from '../../src/sim/pinpad/index.js';
import { type VirtualPinpadOptions } from '../../src/sim/pinpad/index.js';
import { cardSim, type CardChoice } from '../../src/sim/pinpad/card/index.js';
import { SANDBOX_KEYS } from '../../tables/sandbox-keys.js';
import { decodePinBlock, decryptData, decryptPinBlock, deriveTdesKeys } from '../../src/crypto/index.js';
import { connectPinpad, startVirtualPinpad } from './virtual-pinpad.js';

/** Link times shortened where the behaviour, not the constant, is under test. */
export const FAST = { ackMs: 400, responseMs: 2000, eotMs: 400, silenceMs: 50 };

export interface Rig {
  sim: VirtualPinpad;
  pinpad: Pinpad;
  pty: string;
  /** Everything the driver logged, serialised. */
  logs: string[];
  choose(c: CardChoice): void;
  stop(): Promise<void>;
}

/**
 * The virtual pinpad behind a real pseudo-terminal (socat) and the driver on that path, as a terminal opens it; its
 * temporary folder (the pty's link) goes with stop().
 */
export async function startRig(opts: VirtualPinpadOptions = {}): Promise<Rig> {
  const dir = mkdtempSync(path.join(tmpdir(), 'omnipos-card-'));
  const pty = path.join(dir, 'pinpad');
  const sim = await startVirtualPinpad({ ...opts, tcpPort: 0, ptyPath: pty });
  const logs: string[] = [];
  const rec =
    (level: string) =>
    (obj: object, msg?: string): void => {
      logs.push(JSON.stringify({ level, ...obj, msg }));
    };
  const log: DriverLogger = { debug: rec('debug'), info: rec('info'), warn: rec('warn') };
  const pinpad = await connectPinpad(
    { pty: pty },
    {
      timings: FAST,
      probeIntervalMs: 0,
      reconnect: { initialMs: 50, maxMs: 200 },
      log,
    },
  );
  return {
    sim,
    pinpad,
    pty,
    logs,
    choose: (c) => {
      const r = cardSim(sim.engine.state).deck.choose(c);
      if (!r.ok) throw new Error(r.error);
    },
    stop: async () => {
      await pinpad.close();
      await sim.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A fresh 8-byte IV, as the terminal makes one per GTK/EBX. */
export const freshIv = (): Uint8Array => randomBytes(8);

/** The host's view (the sandbox's keys): decrypts GTK/EBX data to the clear nibbles or text. Test side only. */
export function hostDecrypt(dataHex: string, ksn: string, ivHex: string): Buffer {
  const key = deriveTdesKeys(SANDBOX_KEYS.bdk, ksn).dataKeyRequest;
  return decryptData(key, dataHex, { iv: ivHex });
}

/** The host's view of a PIN block (ISO format 0). Test side only. */
export function hostPin(block: string, ksn: string, pan: string): string {
  return decodePinBlock(decryptPinBlock(deriveTdesKeys(SANDBOX_KEYS.bdk, ksn).pinKey, block), { format: 0, pan });
}

/** Today as GCX wants it. */
export function now(): { date: string; time: string } {
  const d = new Date();
  const p = (n: number): string => String(n).padStart(2, '0');
  return {
    date: `${p(d.getFullYear() % 100)}${p(d.getMonth() + 1)}${p(d.getDate())}`,
    time: `${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}`,
  };
}

/** How a pinpad command ended: 'ok', the pinpad's RSP_STAT (PINPAD_STATUS), or the driver's error code. */
export async function statusOf(p: Promise<unknown>): Promise<number | string> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    if (isPinpadError(e)) return e.code === 'PINPAD_STATUS' ? Number(e.context.status) : e.code;
    throw e;
  }
}
