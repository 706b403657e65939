import { CODE_PAGES, type CodePageId } from '../../tables/printers/index.js';

/** Characters no Portuguese code page has, replaced by what a reader expects on paper. */
const TRANSLITERATE: Readonly<Record<string, string>> = {
  '\u2014': '-', // em dash
  '\u2013': '-', // en dash
  '\u2212': '-',
  '\u2018': "'",
  '\u2019': "'",
  '\u201C': '"',
  '\u201D': '"',
  '\u2026': '...',
  '\u20AC': 'EUR',
  '\u00A0': ' ',
  '\u2022': '*',
};

const encodeMaps = new Map<CodePageId, Map<string, number>>();
function encodeMap(cp: CodePageId): Map<string, number> {
  let m = encodeMaps.get(cp);
  if (!m) {
    m = new Map();
    [...CODE_PAGES[cp].high].forEach((ch, i) => m!.set(ch, 0x80 + i));
    encodeMaps.set(cp, m);
  }
  return m;
}

/** Strips the accent of a letter the code page lacks: `ẽ` → `e`. */
function baseLetter(ch: string): string {
  return ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
}

/**
 * Text to printer bytes in a code page. Printable ASCII passes through; characters of the code
 * page's upper half map to their byte; others are transliterated (dashes, quotes, accents the page
 * lacks) or printed as `?`. Control characters other than LF become `?` so text can never carry a
 * command. Never throws.
 */
export function encodeText(text: string, cp: CodePageId): Uint8Array {
  const map = encodeMap(cp);
  const out: number[] = [];
  const push = (ch: string): boolean => {
    const c = ch.codePointAt(0)!;
    if (c === 0x0a || (c >= 0x20 && c <= 0x7e)) {
      out.push(c);
      return true;
    }
    const b = map.get(ch);
    if (b !== undefined) {
      out.push(b);
      return true;
    }
    return false;
  };
  for (const ch of text.normalize('NFC')) {
    if (push(ch)) continue;
    const t = TRANSLITERATE[ch];
    if (t !== undefined) {
      for (const x of t) push(x);
      continue;
    }
    const base = baseLetter(ch);
    if (base !== ch && [...base].every((x) => push(x))) continue;
    out.push(0x3f);
  }
  return Uint8Array.from(out);
}

/** Printer bytes (0x20..0xFF) back to text in a code page: what the printer draws. */
export function decodeText(bytes: Uint8Array, cp: CodePageId): string {
  const high = [...CODE_PAGES[cp].high];
  let s = '';
  for (const b of bytes) s += b >= 0x80 ? high[b - 0x80] : String.fromCharCode(b);
  return s;
}
