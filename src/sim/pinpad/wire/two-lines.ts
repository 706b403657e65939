/** Characters per line of the pinpad's display and of a notification (§2.3.3: 2 lines of 16). */
const WIDTH = 16;

/**
 * NTM_MSG as §2.3.3 has it: "formatada para poder ser visualizada corretamente em 2 linhas de 16
 * caracteres" (S32, RSP_LEN1 000 to 032). Words wrap at 16 characters (a longer word is cut; what does not
 * fit two lines is left out); the first line is padded to 16 when a second follows, so the second starts at
 * the 17th character; CR or LF in `text` starts the second line.
 */
export function twoLines(text: string): string {
  const words = text.split(/[\r\n]/).length > 1 ? null : text.trim().split(/\s+/).filter(Boolean);
  const lines: string[] = words
    ? wrap(words)
    : text
        .split(/[\r\n]+/)
        .map((l) => l.trim())
        .filter(Boolean);
  const [first = '', second = ''] = lines.map((l) => l.slice(0, WIDTH));
  return second ? `${first.padEnd(WIDTH)}${second}` : first;
}

function wrap(words: readonly string[]): string[] {
  const lines: string[] = [];
  let line = '';
  for (const w of words) {
    if (line && line.length + 1 + w.length > WIDTH) {
      lines.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(line);
  return lines;
}
