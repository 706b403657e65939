import { createCipheriv, createDecipheriv, createPublicKey, publicEncrypt, constants, randomBytes } from 'node:crypto';
import net from 'node:net';

/**
 * A raw pinpad on a TCP socket whose every byte a test scripts, written from ABECS 2.20 §2.2 and
 * §5.2 alone (its own CRC, framing, parser and secure channel: nothing of the driver's). It records
 * what the driver sends; by default it ACKs good packets, NAKs bad ones, answers CAN with EOT and
 * answers nothing else: each test says what a command gets, byte for byte when it matters.
 */

export const SYN = 0x16;
export const ETB = 0x17;
export const DC3 = 0x13;
export const ACK = 0x06;
export const NAK = 0x15;
export const EOT = 0x04;
export const CAN = 0x18;
const DC2 = 0x12;

/** CRC-16 of §7.2 (polynomial 1021h, initial 0, MSB first) over PKTDATA and ETB. */
export function crc(data: Uint8Array): number {
  let c = 0;
  for (const b of [...data, ETB]) {
    c ^= b << 8;
    for (let i = 0; i < 8; i++) c = c & 0x8000 ? ((c << 1) ^ 0x1021) & 0xffff : (c << 1) & 0xffff;
  }
  return c;
}

/** SYN, PKTDATA with DC3, SYN and ETB escaped as DC3 + (byte + 20h) (§2.2.1), ETB, CRC high then low. */
export function packet(data: Uint8Array | string): Buffer {
  const d = typeof data === 'string' ? Buffer.from(data, 'latin1') : Buffer.from(data);
  const out = [SYN];
  for (const b of d) {
    if (b === DC3 || b === SYN || b === ETB) out.push(DC3, b + 0x20);
    else out.push(b);
  }
  const c = crc(d);
  out.push(ETB, c >> 8, c & 0xff);
  return Buffer.from(out);
}

/** What the peer saw, in order: each good packet's PKTDATA (opened when it came sealed), each control byte. */
export type Seen =
  | { kind: 'packet'; data: Buffer; sealed: boolean }
  | { kind: 'control'; byte: number }
  | { kind: 'bad'; why: 'crc' | 'escape' };

export interface PeerContext {
  /** Writes raw bytes to the driver. */
  write(bytes: Uint8Array | string): void;
  /** Writes `data` as one packet, sealed under the session key when a secure session is up and `clear` is not set. */
  answer(data: string | Uint8Array, opts?: { clear?: boolean }): void;
}

/** Called for each good command packet after its ACK (unless it returns 'nak' or 'no-ack' from `ack`). */
export type Script = (cmd: string, raw: Buffer, peer: PeerContext) => void;

export class ScriptedPeer implements PeerContext {
  readonly seen: Seen[] = [];
  port = 0;
  /** The answer to each command, by default none. */
  script: Script = () => undefined;
  /** Whether a good command is ACKed ('ack'), NAKed or left unanswered. */
  ack: (cmd: string) => 'ack' | 'nak' | 'none' = () => 'ack';
  /** Answer CAN with EOT (default true). */
  eotOnCan = true;
  /** KSEC of the current secure session (set by `secureOpn`), or undefined. */
  ksec: Buffer | undefined;
  private server = net.createServer();
  private socket: net.Socket | undefined;
  private rx: number[] | undefined;
  private esc = false;
  private crcLeft = -1;
  private crcBytes: number[] = [];
  /** What a NAK from the driver gets again (the last answer); a test may set it, or clear it to ignore NAKs. */
  lastAnswer: Buffer | undefined;
  connections = 0;

  async start(): Promise<void> {
    this.server.on('connection', (s) => {
      this.socket?.destroy();
      this.socket = s;
      this.connections++;
      this.rx = undefined;
      this.crcLeft = -1;
      s.on('data', (chunk: Buffer) => {
        for (const b of chunk) this.byte(b);
      });
      s.on('error', () => undefined);
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  async stop(): Promise<void> {
    this.socket?.destroy();
    await new Promise((r) => this.server.close(r));
  }

  /** Pulls the cable: the socket is destroyed under the driver. */
  unplug(): void {
    this.socket?.destroy();
  }

  write(bytes: Uint8Array | string): void {
    this.socket?.write(typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes);
  }

  answer(data: string | Uint8Array, opts: { clear?: boolean } = {}): void {
    const d = typeof data === 'string' ? Buffer.from(data, 'latin1') : Buffer.from(data);
    this.lastAnswer = packet(this.ksec && !opts.clear ? seal(this.ksec, d) : d);
    this.write(this.lastAnswer);
  }

  /** Control bytes the driver sent (CAN, NAK…) since `from` (an index into `seen`). */
  controls(byte: number, from = 0): number {
    return this.seen.slice(from).filter((s) => s.kind === 'control' && s.byte === byte).length;
  }

  /** Command ids (first 3 characters of each packet) the driver sent, in order. */
  commands(): string[] {
    return this.seen.flatMap((s) => (s.kind === 'packet' ? [s.data.subarray(0, 3).toString('latin1')] : []));
  }

  /**
   * Answers a secure OPN (§3.2.2) as an Abecs pinpad: a fresh KSEC wrapped (RSA PKCS#1 v1.5, §5.2.1)
   * under the modulus and exponent the command carries; from then on answers are sealed.
   */
  secureOpn(cmd: Buffer): void {
    const text = cmd.toString('latin1');
    // OPN LLL OPMODE(1) MODLEN(3) MOD(H512) EXPLEN(1) EXP
    const mod = Buffer.from(text.slice(10, 10 + 512), 'hex');
    const expLen = Number(text[10 + 512]);
    const exp = Buffer.from(text.slice(11 + 512, 11 + 512 + 2 * expLen), 'hex');
    const key = createPublicKey({
      key: { kty: 'RSA', n: mod.toString('base64url'), e: exp.toString('base64url') },
      format: 'jwk',
    });
    const ksec = randomBytes(16);
    const crk = publicEncrypt({ key, padding: constants.RSA_PKCS1_PADDING }, ksec).toString('hex').toUpperCase();
    this.ksec = undefined;
    this.answer(`OPN000${String(3 + crk.length).padStart(3, '0')}256${crk}`);
    this.ksec = ksec;
  }

  private byte(b: number): void {
    if (this.crcLeft >= 0) {
      this.crcBytes.push(b);
      if (--this.crcLeft === 0) this.endPacket();
      return;
    }
    if (this.rx === undefined) {
      if (b === SYN) {
        this.rx = [];
        this.esc = false;
      } else {
        this.seen.push({ kind: 'control', byte: b });
        if (b === CAN && this.eotOnCan) this.write(Uint8Array.of(EOT));
        if (b === NAK && this.lastAnswer) this.write(this.lastAnswer);
      }
      return;
    }
    if (this.esc) {
      this.esc = false;
      if (b !== 0x33 && b !== 0x36 && b !== 0x37) {
        this.rx = undefined;
        this.seen.push({ kind: 'bad', why: 'escape' });
        this.write(Uint8Array.of(NAK));
        return;
      }
      this.rx.push(b - 0x20);
    } else if (b === DC3) this.esc = true;
    else if (b === ETB) {
      this.crcLeft = 2;
      this.crcBytes = [];
    } else if (b === SYN) this.rx = [];
    else this.rx.push(b);
  }

  private endPacket(): void {
    const data = Buffer.from(this.rx ?? []);
    this.rx = undefined;
    this.crcLeft = -1;
    if (((this.crcBytes[0]! << 8) | this.crcBytes[1]!) !== crc(data)) {
      this.seen.push({ kind: 'bad', why: 'crc' });
      this.write(Uint8Array.of(NAK));
      return;
    }
    const sealed = data[0] === DC2;
    const clear = sealed && this.ksec ? open(this.ksec, data) : data;
    this.seen.push({ kind: 'packet', data: clear, sealed });
    const cmd = clear.subarray(0, 3).toString('latin1');
    const a = this.ack(cmd);
    if (a === 'nak') return this.write(Uint8Array.of(NAK));
    if (a === 'none') return;
    this.write(Uint8Array.of(ACK));
    this.lastAnswer = undefined;
    this.script(cmd, clear, this);
  }
}

/** §5.2.2.1: DC2 + AES-128-CBC (zero IV) of DATALEN(2) DATACRC(2) CLRDATA, zero-filled to 16. */
export function seal(ksec: Buffer, clr: Buffer): Buffer {
  const plain = Buffer.alloc(Math.ceil((4 + clr.length) / 16) * 16);
  plain.writeUInt16BE(clr.length, 0);
  plain.writeUInt16BE(crcNoEtb(clr), 2);
  clr.copy(plain, 4);
  const c = createCipheriv('aes-128-cbc', ksec, Buffer.alloc(16)).setAutoPadding(false);
  return Buffer.concat([Buffer.of(DC2), c.update(plain), c.final()]);
}

function open(ksec: Buffer, data: Buffer): Buffer {
  const d = createDecipheriv('aes-128-cbc', ksec, Buffer.alloc(16)).setAutoPadding(false);
  const plain = Buffer.concat([d.update(data.subarray(1)), d.final()]);
  return plain.subarray(4, 4 + plain.readUInt16BE(0));
}

/** §7.2's CRC over the bytes alone (DATACRC of §5.2.2.1 covers CLRDATA, no ETB). */
function crcNoEtb(data: Uint8Array): number {
  let c = 0;
  for (const b of data) {
    c ^= b << 8;
    for (let i = 0; i < 8; i++) c = c & 0x8000 ? ((c << 1) ^ 0x1021) & 0xffff : (c << 1) & 0xffff;
  }
  return c;
}

export function until(pred: () => boolean, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const tick = (): void => {
      if (pred()) resolve();
      else if (Date.now() > end) reject(new Error('condition not met in time'));
      else setTimeout(tick, 10);
    };
    tick();
  });
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
