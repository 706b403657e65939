import { SANDBOX_KEYS } from '../../../../tables/sandbox-keys.js';
import {
  deriveTdesKeys,
  encodePinBlock,
  encryptData,
  encryptPinBlock,
  nextCounter,
  toHex,
  withCounter,
} from '../../../crypto/index.js';
import { PinpadMemory } from '../memory.js';

/**
 * The virtual pinpad's DUKPT keys: the sandbox's test BDK (ANSI X9.24-1:2009 annex A) behind a PIN
 * key and a data key, each with its own initial KSN (tables/sandbox-keys.json), so the sandbox host
 * decrypts what the pinpad encrypts. Every use moves the counter on (X9.24: skipping counters with
 * more than ten one-bits). The counters live in the pinpad's memory, which a power cycle keeps when
 * it has a file. Sandbox only: the BDK is public.
 */
export class SimDukpt {
  constructor(private readonly memory: PinpadMemory = new PinpadMemory()) {}

  /** The last counter used under `kind`'s key (0: none yet). */
  counter(kind: 'pin' | 'data'): number {
    return this.memory.counter(kind);
  }

  private next(kind: 'pin' | 'data'): string {
    const n = nextCounter(this.memory.counter(kind));
    if (n === undefined) throw new Error(`DUKPT ${kind} key exhausted`);
    this.memory.use(kind, n);
    return withCounter(kind === 'pin' ? SANDBOX_KEYS.pinInitialKsn : SANDBOX_KEYS.dataInitialKsn, n).hex;
  }

  /** Encrypts blocks (each a whole number of 8-byte blocks) under ONE data key (§5.1.1: one KSN per command), CBC with `iv`. */
  encryptData(
    blocks: readonly Uint8Array[],
    iv: Uint8Array,
    mode: 'cbc' | 'ecb' = 'cbc',
  ): { ksn: string; out: Buffer[] } {
    const ksn = this.next('data');
    const key = deriveTdesKeys(SANDBOX_KEYS.bdk, ksn).dataKeyRequest;
    const out = blocks.map((b) => {
      if (mode === 'cbc') return encryptData(key, b, { iv });
      // ECB: each 8-byte block on its own (CBC with a zero IV, block by block)
      const parts: Buffer[] = [];
      for (let i = 0; i < b.length; i += 8) parts.push(encryptData(key, b.subarray(i, i + 8)));
      return Buffer.concat(parts);
    });
    key.fill(0);
    return { ksn, out };
  }

  /**
   * GTK's fields under the DUKPT data key as §6.3.4.2 says: in ECB mode the clear PAN and tracks are
   * concatenated and encrypted under ONE key (one KSN for every field); in CBC mode each field is
   * encrypted on its own, each under a new key with its own KSN ("diferentes e independentes").
   */
  encryptFields(blocks: readonly Uint8Array[], iv: Uint8Array, mode: 'cbc' | 'ecb'): { ksn: string; out: Buffer }[] {
    if (mode === 'ecb') {
      const { ksn, out } = this.encryptData(blocks, iv, 'ecb');
      return out.map((o) => ({ ksn, out: o }));
    }
    return blocks.map((b) => {
      const { ksn, out } = this.encryptData([b], iv, 'cbc');
      return { ksn, out: out[0]! };
    });
  }

  /** An ISO format 0 PIN block under the DUKPT PIN key. */
  encryptPin(pin: string, pan: string): { block: string; ksn: string } {
    const ksn = this.next('pin');
    const key = deriveTdesKeys(SANDBOX_KEYS.bdk, ksn).pinKey;
    const clear = encodePinBlock({ format: 0, pin, pan });
    const block = toHex(encryptPinBlock(key, clear));
    clear.fill(0);
    key.fill(0);
    return { block, ksn };
  }
}

/** Digits as nibbles, '=' as D, 'F' filler to whole 8-byte blocks (§5.4.2.2: PAN, tracks 2 and 3). */
export function packTrack(track: string): Buffer {
  const nibbles = track.replace(/=/g, 'D');
  return Buffer.from(nibbles.padEnd(Math.ceil(nibbles.length / 16) * 16, 'F'), 'hex');
}

/** Track 1 as ASCII with 00h filler to whole 8-byte blocks (§5.4.2.1). */
export function packTrack1(track: string): Buffer {
  const b = Buffer.from(track, 'latin1');
  const out = Buffer.alloc(Math.ceil(b.length / 8) * 8);
  b.copy(out);
  return out;
}
