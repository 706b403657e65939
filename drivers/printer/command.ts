import { PrinterError } from './errors.js';
import { LAYOUTS, type CommandLayout, type CommandName, type ParamKind } from './layouts.js';

function paramKinds(layout: CommandLayout, args: readonly number[]): readonly ParamKind[] {
  const first = layout.params;
  return layout.more ? [...first, ...layout.more(args.slice(0, first.length))] : first;
}

/**
 * One command's bytes from its layout: prefix, parameters (u8, or u16 little-endian), data.
 * Refuses arguments out of range and data whose length the layout does not allow.
 */
export function encodeCommand(name: CommandName, args: readonly number[] = [], data?: Uint8Array): Uint8Array {
  const layout: CommandLayout = LAYOUTS[name];
  const kinds = paramKinds(layout, args);
  if (args.length !== kinds.length) {
    throw new PrinterError(
      'PRINTER_INVALID_ARGUMENT',
      `${name}: expected ${kinds.length} parameters, got ${args.length}`,
      { command: name },
    );
  }
  const out: number[] = [...layout.prefix];
  kinds.forEach((k, i) => {
    const v = args[i]!;
    const max = k === 'u8' ? 0xff : 0xffff;
    if (!Number.isInteger(v) || v < 0 || v > max) {
      throw new PrinterError(
        'PRINTER_INVALID_ARGUMENT',
        `${name}: parameter ${i + 1} must be an integer 0..${max}, got ${v}`,
        { command: name, index: i },
      );
    }
    if (k === 'u8') out.push(v);
    else out.push(v & 0xff, v >> 8);
  });
  const want = layout.data?.(args);
  const body = data ?? new Uint8Array(0);
  if (want === undefined && body.length > 0)
    throw new PrinterError('PRINTER_INVALID_ARGUMENT', `${name}: takes no data`, { command: name });
  if (typeof want === 'number' && body.length !== want) {
    throw new PrinterError(
      'PRINTER_INVALID_ARGUMENT',
      `${name}: parameters announce ${want} data bytes, got ${body.length}`,
      { command: name },
    );
  }
  if (want === 'nul' && body.includes(0))
    throw new PrinterError('PRINTER_INVALID_ARGUMENT', `${name}: data may not contain NUL`, { command: name });
  const bytes = new Uint8Array(out.length + body.length + (want === 'nul' ? 1 : 0));
  bytes.set(out, 0);
  bytes.set(body, out.length);
  return bytes;
}

/** Concatenates byte arrays. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
