/**
 * Field formats of ABECS 2.20 §1.3. A: ASCII 20h-7Eh, left aligned, space padded. S: ISO 8859-1
 * 20h-FFh, left aligned, space padded. N: decimal digits, right aligned, zero padded. H: hex digits
 * (two per byte), right aligned, zero padded. X: binary, most significant byte first. B: any bytes.
 */
export type FieldFormat = 'A' | 'S' | 'N' | 'H' | 'X' | 'B';

/** One field of a fixed ("classic") layout: `A20` is `{ format: 'A', length: 20 }`; `S..160` adds `variable: true`. */
export interface FieldSpec {
  readonly name: string;
  readonly format: FieldFormat;
  readonly length: number;
  readonly variable?: boolean;
  /** May be left out at the end of a block (e.g. DEX_OPTIONS). */
  readonly optional?: boolean;
  /** For a variable field: the earlier N field holding its length (DEX_MSG <- DEX_MSGLEN). */
  readonly lengthFrom?: string;
}

export type Layout = readonly FieldSpec[];

/** Parses the spec's notation: `A20`, `S..160`, `X2`. */
export function field(
  name: string,
  notation: string,
  extra: { optional?: boolean; lengthFrom?: string } = {},
): FieldSpec {
  const m = /^([ASNHXB])(\.\.)?(\d{1,3})$/.exec(notation);
  if (!m) throw new Error(`bad field notation ${notation} for ${name}`);
  return {
    name,
    format: m[1] as FieldFormat,
    length: Number(m[3]),
    ...(m[2] ? { variable: true } : {}),
    ...(extra.optional ? { optional: true } : {}),
    ...(extra.lengthFrom ? { lengthFrom: extra.lengthFrom } : {}),
  };
}
