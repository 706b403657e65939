/**
 * The application level as the pinpad reads it (ABECS 2.20 §2.3.1, §2.3.2, §6.2.2): a command is
 * CMD_ID (A3) then blocks, each preceded by CMD_LENn (N3, "000".."999"); an answer is RSP_ID,
 * RSP_STAT (N3) and, only when RSP_STAT is "000", blocks the same way. Written for the virtual
 * pinpad from the specification; the driver's codec is not used.
 */

/** A command the pinpad could split: its id and its blocks (views into the packet). */
export interface ParsedCommand {
  readonly id: string;
  readonly blocks: readonly Uint8Array[];
}

/** Why a command's structure is broken: the pinpad answers ST_INVPARM (§6.2.2) or ERR010 for no id. */
export type CommandFault = { readonly kind: 'no-id' | 'block-length' | 'block-overrun'; readonly offset: number };

const latin1 = (b: Uint8Array): string => Buffer.from(b).toString('latin1');

/** CMD_ID is A3: three characters 20h..7Eh (§1.3 format A). */
export function isCommandId(text: string): boolean {
  return /^[\x20-\x7e]{3}$/.test(text);
}

/** Splits PKTDATA (or CLRDATA) into CMD_ID and blocks; a structural fault says where. */
export function parseCommand(data: Uint8Array): ParsedCommand | CommandFault {
  if (data.length < 3 || !isCommandId(latin1(data.subarray(0, 3)))) return { kind: 'no-id', offset: 0 };
  const id = latin1(data.subarray(0, 3));
  const blocks: Uint8Array[] = [];
  let at = 3;
  while (at < data.length) {
    const len = latin1(data.subarray(at, at + 3));
    if (!/^\d{3}$/.test(len)) return { kind: 'block-length', offset: at };
    const n = Number(len);
    if (at + 3 + n > data.length) return { kind: 'block-overrun', offset: at };
    blocks.push(data.subarray(at + 3, at + 3 + n));
    at += 3 + n;
  }
  return { id, blocks };
}

export function isCommandFault(x: ParsedCommand | CommandFault): x is CommandFault {
  return 'kind' in x;
}

const n3 = (n: number): number[] => [...String(n).padStart(3, '0')].map((c) => c.charCodeAt(0));

/** An answer's bytes: RSP_ID, RSP_STAT, then each block behind its N3 length; an error answer carries no data (§2.3.2). */
export function writeAnswer(id: string, status: number, blocks: readonly Uint8Array[] = []): Uint8Array {
  if (!isCommandId(id)) throw new RangeError(`answer id must be 3 characters, got ${JSON.stringify(id)}`);
  if (!Number.isInteger(status) || status < 0 || status > 999) throw new RangeError(`status ${status} is not N3`);
  const out: number[] = [...id].map((c) => c.charCodeAt(0));
  out.push(...n3(status));
  if (status === 0) {
    for (const b of blocks) {
      if (b.length > 999) throw new RangeError(`${id}: block of ${b.length} bytes exceeds 999 (§2.3.2)`);
      out.push(...n3(b.length), ...b);
    }
  }
  return Uint8Array.from(out);
}
