import { concatBytes } from './command.js';
import { LAYOUTS, type CommandLayout, type CommandName, type ParamKind } from './layouts.js';

/** What the decoder read: text bytes, a known command, or bytes it skipped. */
export type EscPosOp =
  | { readonly kind: 'text'; readonly bytes: Uint8Array; readonly offset: number }
  | {
      readonly kind: 'command';
      readonly name: CommandName;
      readonly args: readonly number[];
      readonly data?: Uint8Array;
      readonly realtime: boolean;
      readonly offset: number;
    }
  /** A control sequence no layout names: its bytes were skipped. */
  | { readonly kind: 'unknown'; readonly bytes: Uint8Array; readonly offset: number }
  /** A known command refused (its data length is beyond `maxData`): its header was skipped. */
  | { readonly kind: 'invalid'; readonly name: CommandName; readonly reason: string; readonly offset: number }
  /** Bytes left at `end()` that do not complete a command. */
  | { readonly kind: 'truncated'; readonly bytes: Uint8Array; readonly offset: number };

const ENTRIES = (Object.entries(LAYOUTS) as [CommandName, CommandLayout][]).sort(
  (a, b) => b[1].prefix.length - a[1].prefix.length,
);
const INTRODUCERS = new Set([0x10, 0x1b, 0x1c, 0x1d]);

/** Default bound on one command's data (a 576-dot-wide raster 14,000 dots long fits). */
export const MAX_COMMAND_DATA = 1 << 20;

/**
 * The inverse of the encoder, for a byte stream that arrives in chunks: `push()` returns the ops
 * complete so far and keeps a partial command for the next chunk; `end()` flushes what is left.
 * It never throws and never waits for more than one command's bytes: unknown control sequences
 * are skipped (and reported), data lengths beyond `maxData` are refused.
 */
export class EscPosDecoder {
  private buf: Uint8Array = new Uint8Array(0);
  private base = 0;

  constructor(private readonly maxData = MAX_COMMAND_DATA) {}

  push(chunk: Uint8Array): EscPosOp[] {
    this.buf = this.buf.length ? concatBytes([this.buf, chunk]) : Uint8Array.from(chunk);
    const ops: EscPosOp[] = [];
    let pos = 0;
    for (;;) {
      const r = this.step(pos);
      if (!r) break;
      if (r.op) ops.push(r.op);
      pos = r.next;
    }
    this.buf = this.buf.slice(pos);
    this.base += pos;
    return ops;
  }

  /** Ops of whatever remains (an incomplete command comes back as `truncated`). */
  end(): EscPosOp[] {
    const ops: EscPosOp[] = [];
    if (this.buf.length) ops.push({ kind: 'truncated', bytes: this.buf, offset: this.base });
    this.base += this.buf.length;
    this.buf = new Uint8Array(0);
    return ops;
  }

  /** One op at `pos`, or undefined when more bytes are needed (or none are left). */
  private step(pos: number): { op?: EscPosOp; next: number } | undefined {
    const b = this.buf;
    if (pos >= b.length) return undefined;
    const offset = this.base + pos;
    if (b[pos]! >= 0x20) {
      let end = pos;
      while (end < b.length && b[end]! >= 0x20) end++;
      return { op: { kind: 'text', bytes: b.slice(pos, end), offset }, next: end };
    }
    let needMore = false;
    for (const [name, layout] of ENTRIES) {
      const p = layout.prefix;
      if (pos + p.length > b.length) {
        if (p.every((x, i) => pos + i >= b.length || b[pos + i] === x)) needMore = true;
        continue;
      }
      if (!p.every((x, i) => b[pos + i] === x)) continue;
      return this.command(name, layout, pos, offset) ?? undefined;
    }
    if (needMore) return undefined;
    if (INTRODUCERS.has(b[pos]!)) {
      if (pos + 1 >= b.length) return undefined;
      return { op: { kind: 'unknown', bytes: b.slice(pos, pos + 2), offset }, next: pos + 2 };
    }
    return { op: { kind: 'unknown', bytes: b.slice(pos, pos + 1), offset }, next: pos + 1 };
  }

  private command(
    name: CommandName,
    layout: CommandLayout,
    pos: number,
    offset: number,
  ): { op: EscPosOp; next: number } | undefined {
    const b = this.buf;
    let at = pos + layout.prefix.length;
    const args: number[] = [];
    const read = (kinds: readonly ParamKind[]): boolean => {
      for (const k of kinds) {
        const size = k === 'u8' ? 1 : 2;
        if (at + size > b.length) return false;
        args.push(k === 'u8' ? b[at]! : b[at]! | (b[at + 1]! << 8));
        at += size;
      }
      return true;
    };
    if (!read(layout.params)) return undefined;
    if (layout.more && !read(layout.more(args))) return undefined;
    const realtime = layout.realtime === true;
    const want = layout.data?.(args);
    if (want === undefined) return { op: { kind: 'command', name, args, realtime, offset }, next: at };
    if (want === 'nul') {
      const limit = Math.min(b.length, at + 256);
      const nul = b.indexOf(0, at);
      if (nul < 0 || nul > limit) {
        if (b.length - at > 255)
          return { op: { kind: 'invalid', name, reason: 'no NUL within 255 data bytes', offset }, next: at };
        return undefined;
      }
      return { op: { kind: 'command', name, args, data: b.slice(at, nul), realtime, offset }, next: nul + 1 };
    }
    if (want > this.maxData)
      return {
        op: { kind: 'invalid', name, reason: `announces ${want} data bytes (limit ${this.maxData})`, offset },
        next: at,
      };
    if (at + want > b.length) return undefined;
    return { op: { kind: 'command', name, args, data: b.slice(at, at + want), realtime, offset }, next: at + want };
  }
}

/** Decodes a whole stream at once. */
export function decodeEscPos(bytes: Uint8Array, maxData = MAX_COMMAND_DATA): EscPosOp[] {
  const d = new EscPosDecoder(maxData);
  return [...d.push(bytes), ...d.end()];
}
