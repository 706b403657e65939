/**
 * The TEF Dial file format (docs/tef-dial.md): one field a line, `AAA-BBB = value`, lines ended by
 * CR LF, the file ended by `999-999 = 0`. Pure: bytes in, fields out, and back.
 *
 * The PDVs write ISO-8859-1; a file holding what no PDV writes (control characters, a UTF-16 or
 * UTF-8 byte-order mark) is refused as `encoding`, never guessed at.
 */

/** Why a file could not be read; `line` is 1-based where one line is at fault. */
export type TefDialFormatProblem = 'no-terminator' | 'duplicate' | 'malformed' | 'encoding' | 'empty';

export class TefDialFormatError extends Error {
  readonly problem: TefDialFormatProblem;
  readonly line: number | undefined;
  readonly field: string | undefined;
  constructor(problem: TefDialFormatProblem, message: string, at: { line?: number; field?: string } = {}) {
    super(message);
    this.name = 'TefDialFormatError';
    this.problem = problem;
    this.line = at.line;
    this.field = at.field;
  }
}

/** A file's fields in the order they came; keys are `AAA-BBB`. */
export type TefDialFields = ReadonlyMap<string, string>;

export const TERMINATOR = '999-999';
const LINE = /^(\d{3}-\d{3}) = (.*)$/;
const KEY = /^\d{3}-\d{3}$/;
/** The biggest file we read: a response of 999 receipt lines of 80 characters is far below. */
export const MAX_FILE_BYTES = 256 * 1024;

function checkBytes(bytes: Uint8Array): void {
  if (bytes.length === 0) throw new TefDialFormatError('empty', 'the file is empty');
  if (bytes.length > MAX_FILE_BYTES)
    throw new TefDialFormatError('malformed', `the file is over ${MAX_FILE_BYTES} bytes`);
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
    throw new TefDialFormatError('encoding', 'a UTF-16 file: the convention is ISO-8859-1 text');
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    throw new TefDialFormatError('encoding', 'a UTF-8 byte-order mark: the convention is ISO-8859-1 text');
  let line = 1;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    if (b === 0x0a) line++;
    const control = (b < 0x20 && b !== 0x0d && b !== 0x0a) || (b >= 0x7f && b <= 0x9f);
    if (control)
      throw new TefDialFormatError(
        'encoding',
        `line ${line}: byte 0x${b.toString(16).padStart(2, '0')} is no ISO-8859-1 text`,
        { line },
      );
  }
}

/** Strips the quotes a receipt line is written between (`029-001 = "  TEXT  "`). */
function unquote(value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
}

/**
 * Reads a file's bytes. Every line must be `AAA-BBB = value` ended by CR LF (a last line without
 * its CR LF is accepted: some PDVs write none after `999-999 = 0`), each key once, and the last
 * field `999-999`; anything after it is refused. Quoted values come back without their quotes.
 */
export function parseTefDial(bytes: Uint8Array): TefDialFields {
  checkBytes(bytes);
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const lines = text.split('\r\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const fields = new Map<string, string>();
  let ended = false;
  lines.forEach((raw, i) => {
    const line = i + 1;
    if (ended) throw new TefDialFormatError('malformed', `line ${line}: text after 999-999`, { line });
    if (raw.includes('\n') || raw.includes('\r'))
      throw new TefDialFormatError('malformed', `line ${line}: lines end with CR LF`, { line });
    const m = LINE.exec(raw);
    if (!m) throw new TefDialFormatError('malformed', `line ${line}: not "AAA-BBB = value"`, { line });
    const key = m[1] as string;
    if (fields.has(key))
      throw new TefDialFormatError('duplicate', `line ${line}: field ${key} twice`, { line, field: key });
    fields.set(key, unquote(m[2] as string));
    if (key === TERMINATOR) ended = true;
  });
  if (!ended) throw new TefDialFormatError('no-terminator', 'no 999-999 = 0 at the end: the file is incomplete');
  fields.delete(TERMINATOR);
  return fields;
}

/** Fields whose value is written between quotes (receipt lines keep their spaces). */
const QUOTED = /^(029|710|711|712|713|714|715)-/;

/**
 * Writes fields as a file: `AAA-BBB = value` lines with CR LF, ISO-8859-1, and `999-999 = 0` at
 * the end. A value must be one line of ISO-8859-1 text; characters outside it are replaced by `?`.
 */
export function writeTefDial(fields: Iterable<readonly [string, string]>): Buffer {
  const out: string[] = [];
  for (const [key, value] of fields) {
    if (!KEY.test(key) || key === TERMINATOR)
      throw new TefDialFormatError('malformed', `no field key ${key}`, { field: key });
    const clean = [...value].map((c) => (isLatin1Text(c) ? c : '?')).join('');
    // A value that itself begins and ends with a quote is quoted again, so reading it gives it back whole.
    const quote = QUOTED.test(key) || (clean.length >= 2 && clean.startsWith('"') && clean.endsWith('"'));
    out.push(`${key} = ${quote ? `"${clean}"` : clean}`);
  }
  out.push(`${TERMINATOR} = 0`);
  return Buffer.from(`${out.join('\r\n')}\r\n`, 'latin1');
}

function isLatin1Text(c: string): boolean {
  const code = c.codePointAt(0) as number;
  return (code >= 0x20 && code < 0x7f) || (code >= 0xa0 && code <= 0xff);
}
