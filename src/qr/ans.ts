/**
 * The ANS ("special alphanumeric") character set of EMV MPM: the printable ASCII characters
 * 20h to 7Eh. Names and cities come from people and registries with accents; `toAns`
 * transliterates them ("São Paulo" → "SAO PAULO").
 */
const SPECIAL: Readonly<Record<string, string>> = {
  ß: 'SS',
  Æ: 'AE',
  æ: 'AE',
  Ø: 'O',
  ø: 'O',
  Œ: 'OE',
  œ: 'OE',
  Ł: 'L',
  ł: 'L',
  Đ: 'D',
  đ: 'D',
  Ð: 'D',
  ð: 'D',
  Þ: 'TH',
  þ: 'TH',
  ı: 'I',
};

/** True when every character is in the ANS set. */
export function isAns(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
}

/**
 * True when `text` is already what `toAns` makes of it (case aside): printable ASCII, single spaces, none at the
 * ends. Most names and cities are; they skip the decomposition and the five replacements.
 */
function isPlainAns(text: string): boolean {
  let previous = 0x20; // a leading space counts as a run
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || (c === 0x20 && previous === 0x20)) return false;
    previous = c;
  }
  return previous !== 0x20 || text.length === 0;
}

/**
 * ANS text, upper-case unless `upper: false` (Pix keeps case): compatibility decomposition, accents dropped, a few letters spelled out,
 * whitespace runs made one space, anything else outside the set dropped; cut to `max` characters.
 */
export function toAns(text: string, max = Infinity, options: { upper?: boolean } = {}): string {
  const upper = options.upper !== false;
  const plain = isPlainAns(text) ? (upper ? text.toUpperCase() : text) : foldToAns(text, upper);
  return plain.length > max ? plain.slice(0, max).trimEnd() : plain;
}

function foldToAns(text: string, upper: boolean): string {
  const folded = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[ßÆæØøŒœŁłĐđÐðÞþı]/g, (c) => SPECIAL[c] ?? '');
  return (upper ? folded.toUpperCase() : folded)
    .replace(/\s+/g, ' ')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/ {2,}/g, ' ')
    .trim();
}
