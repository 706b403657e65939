import type { Align } from './paper.js';

/** The character style the ESC/POS commands set (ESC a, ESC E, ESC -, GS !, ESC !, ESC t) until ESC @. */
const ALIGNS: readonly Align[] = ['left', 'center', 'right'];

export interface Style {
  align: Align;
  bold: boolean;
  underline: boolean;
  width: number;
  height: number;
  codeTable: number;
}

export const initialStyle = (): Style => ({
  align: 'left',
  bold: false,
  underline: false,
  width: 1,
  height: 1,
  codeTable: 0,
});

/** Applies a style command to `style`; false when `name` is not one (ESC @ is the printer's: it also resets QR settings). */
export function applyStyle(style: Style, name: string, a: readonly number[]): boolean {
  switch (name) {
    case 'codeTable':
      style.codeTable = a[0]!;
      return true;
    case 'justification':
      style.align = ALIGNS[a[0]! % 48] ?? 'left';
      return true;
    case 'emphasized':
      style.bold = (a[0]! & 1) === 1;
      return true;
    case 'underline':
      style.underline = a[0]! % 48 > 0;
      return true;
    case 'characterSize':
      style.width = ((a[0]! >> 4) & 7) + 1;
      style.height = (a[0]! & 7) + 1;
      return true;
    case 'printMode':
      style.bold = (a[0]! & 0x08) !== 0;
      style.height = a[0]! & 0x10 ? 2 : 1;
      style.width = a[0]! & 0x20 ? 2 : 1;
      style.underline = (a[0]! & 0x80) !== 0;
      return true;
    default:
      return false;
  }
}
