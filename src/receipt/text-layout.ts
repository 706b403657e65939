/** Text helpers for fixed-width receipts. Lengths count characters (one column each at normal width). */

export function len(s: string): number {
  return [...s].length;
}

/** Splits text into lines of at most `width` characters, at spaces when it can. */
export function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  for (const para of text.split('\n')) {
    let line = '';
    for (const word of para.split(/\s+/).filter(Boolean)) {
      let w = word;
      while (len(w) > width) {
        if (line) {
          out.push(line);
          line = '';
        }
        out.push([...w].slice(0, width).join(''));
        w = [...w].slice(width).join('');
      }
      if (!w) continue;
      if (!line) line = w;
      else if (len(line) + 1 + len(w) <= width) line += ` ${w}`;
      else {
        out.push(line);
        line = w;
      }
    }
    out.push(line);
  }
  return out.filter((l, i, a) => l !== '' || (i > 0 && i < a.length - 1));
}

/** `label ........ value` in one line, or the label and then the value right-aligned when they do not fit. */
export function labelValue(label: string, value: string, width: number): string[] {
  const gap = width - len(label) - len(value);
  if (gap >= 1) return [label + ' '.repeat(gap) + value];
  return [...wrap(label, width), ...wrap(value, width).map((v) => ' '.repeat(Math.max(0, width - len(v))) + v)];
}

/** Pads a line as the printer would place it. */
export function place(text: string, width: number, align: 'left' | 'center' | 'right', charWidth = 1): string {
  const used = Math.min(width, len(text) * charWidth);
  const free = width - used;
  const left = align === 'left' ? 0 : align === 'center' ? Math.floor(free / 2) : free;
  return (' '.repeat(left) + text).replace(/\s+$/, '');
}
