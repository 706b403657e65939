import { inspect } from 'node:util';

/**
 * The clear card data a classic GCR hands the terminal (§3.6.1: tracks and PAN in clear): held in
 * buffers that are overwritten once used, never printed. `toJSON` and `inspect` show nothing of it,
 * so a log line or an error context that catches one by mistake holds no card data.
 */
export class ClearCardData {
  #track1: Buffer;
  #track2: Buffer;
  #pan: Buffer;

  constructor(track2: string, pan: string, track1 = '') {
    this.#track1 = Buffer.from(track1, 'latin1');
    this.#track2 = Buffer.from(track2, 'latin1');
    this.#pan = Buffer.from(pan, 'latin1');
  }

  /** Track 1 as GTK encrypts it (§5.4.2.1): one byte per character, 00h filler to whole 8-byte blocks; undefined when none. */
  packedTrack1(): Buffer | undefined {
    if (this.#track1.length === 0 || this.#track1.every((b) => b === 0)) return undefined;
    const out = Buffer.alloc(Math.ceil(this.#track1.length / 8) * 8);
    this.#track1.copy(out);
    return out;
  }

  /** Track 2 packed as GTK packs it (§5.4.2.2): a digit per nibble, '=' as D, F filler to whole 8-byte blocks. */
  packedTrack2(): Buffer | undefined {
    const t = this.#track2.toString('latin1').replace(/=/g, 'D');
    if (!/^[0-9D]{1,40}$/.test(t)) return undefined;
    return Buffer.from(t.padEnd(Math.ceil(t.length / 16) * 16, 'F'), 'hex');
  }

  /** The PAN for a classic GPN (the pinpad holds no PAN after GCR: §3.3.11 keeps the empty PAN for §5.4). */
  pan(): string {
    return this.#pan.toString('latin1');
  }

  get hasTrack2(): boolean {
    return this.#track2.some((b) => b !== 0);
  }

  /** Overwrites the tracks (the PAN stays for a GPN). */
  wipeTrack(): void {
    this.#track1.fill(0);
    this.#track2.fill(0);
  }

  wipe(): void {
    this.#track1.fill(0);
    this.#track2.fill(0);
    this.#pan.fill(0);
  }

  toJSON(): string {
    return '[card data withheld]';
  }

  [inspect.custom](): string {
    return 'ClearCardData [withheld]';
  }
}
