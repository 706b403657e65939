/**
 * The field formats of ABECS 2.20 §1.3 as the virtual pinpad reads them, and its own notation for a
 * fixed-field layout: one string of "NAME FORMAT" pairs as the command's table prints them ("GIN_MNAME
 * A20", "DEX_MSG S..160"), "?" after an optional trailing field, "<-NAME" after a variable one whose
 * length an earlier N field holds.
 * A: ASCII 20h-7Eh; S: ISO 8859-1 20h-FFh; N: decimal digits; H: hex digits; X: binary; B: any bytes.
 */
export type FieldFormat = 'A' | 'S' | 'N' | 'H' | 'X' | 'B';

export interface FieldSpec {
  readonly name: string;
  readonly format: FieldFormat;
  readonly length: number;
  readonly variable?: boolean;
  readonly optional?: boolean;
  readonly lengthFrom?: string;
}

export type Layout = readonly FieldSpec[];

/** Reads one layout string: `"GIN_ACQIDX N2"`, `"DEX_MSGLEN N3, DEX_MSG S..160 <-DEX_MSGLEN, DEX_OPTIONS N6 ?"`. */
export function layout(text: string): Layout {
  return text.split(',').map((part) => {
    const m = /^(\w+) ([ASNHXB])(\.\.)?(\d{1,3})(?: <-(\w+))?( \?)?$/.exec(part.trim());
    if (!m) throw new Error(`spec/formats: cannot read "${part.trim()}"`);
    return {
      name: m[1]!,
      format: m[2] as FieldFormat,
      length: Number(m[4]),
      ...(m[3] ? { variable: true } : {}),
      ...(m[5] ? { lengthFrom: m[5] } : {}),
      ...(m[6] ? { optional: true } : {}),
    };
  });
}
