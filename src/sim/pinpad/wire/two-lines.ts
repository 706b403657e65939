/** Characters per line of the pinpad's display and of a notification (§2.3.3: 2 lines of 16). */
const WIDTH = 16;

/**
 * NTM_MSG as §2.3.3 has it: "formatada para poder ser visualizada corretamente em 2 linhas de 16
 * caracteres" (S32, RSP_LEN1 000 to 032). Words wrap at 16 characters (a longer word is cut; what does not
 * fit two lines is left out); the first line is padded to 16 when a second follows, so the second starts at
 * the 17th character; CR or LF in `text` starts the second line. The one place a message is laid out for the
 * 2×16 screen: callers pass the whole message (SPE_DSPMSG is S..128 with CR line breaks, §3.1.3.1), never
 * one cut or with its breaks turned to spaces first.
 */
export function twoLines(text: string): string {
  const [first = '', second = ''] = displayLines(text);
  return second ? `${first.padEnd(WIDTH)}${second}` : first;
}

/** The two lines of 16 `text` shows as on the 2×16 display (twoLines' layout, unpadded). */
export function displayLines(text: string): [string, string] {
  const words = text.split(/[\r\n]/).length > 1 ? null : text.trim().split(/\s+/).filter(Boolean);
  const lines: string[] = words
    ? wrap(words)
    : text
        .split(/[\r\n]+/)
        .map((l) => l.trim())
        .filter(Boolean);
  const [first = '', second = ''] = lines.map((l) => l.slice(0, WIDTH));
  return [first, second];
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
