/**
 * Progress of long work (omnipos init's download, validation, store and pinpad load; the chaos run):
 * on a terminal a bar redrawn in place on one line; otherwise (a pipe, a file, journald) plain
 * lines a program or a log can read: each step, and each quarter of a counted piece of work.
 * `--json` commands print neither (pass `quiet`).
 */

export interface ProgressOptions {
  /** Where the text goes (a command's ctx.out, or process.stderr's write). */
  write(text: string): void;
  /** A terminal: draw a bar. Otherwise plain lines. */
  tty: boolean;
  /** The terminal's width (default 80). */
  columns?: number;
  /** Print nothing (--json). */
  quiet?: boolean;
}

export interface Progress {
  /** A step: one line (a bar being drawn is finished first). */
  step(text: string): void;
  /** `done` of `total` units of `label` (e.g. "store: BIN ranges"). */
  update(label: string, done: number, total: number): void;
  /** Ends the bar being drawn, if any (its last state stays on screen). */
  end(): void;
}

const BAR_MIN = 10;
const BAR_MAX = 40;

/** `[#########-----------]  512/1024  50%  label`, fitted to the width. */
export function barLine(label: string, done: number, total: number, columns: number): string {
  const ratio = total > 0 ? Math.min(1, Math.max(0, done / total)) : 1;
  const counts = `${String(done).padStart(String(total).length)}/${total}`;
  const percent = `${Math.floor(ratio * 100)}%`.padStart(4);
  const room = columns - 1 - counts.length - percent.length - label.length - 8;
  const width = Math.max(BAR_MIN, Math.min(BAR_MAX, room));
  const filled = Math.round(ratio * width);
  const line = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${counts} ${percent}  ${label}`;
  return line.length < columns ? line : line.slice(0, Math.max(0, columns - 1));
}

export function createProgress(opts: ProgressOptions): Progress {
  const columns = opts.columns && opts.columns > 20 ? opts.columns : 80;
  let drawing = false;
  let lastQuarter = new Map<string, number>();
  const finish = (): void => {
    if (drawing) opts.write('\n');
    drawing = false;
  };
  if (opts.quiet) return { step() {}, update() {}, end() {} };
  return {
    step(text) {
      finish();
      opts.write(`• ${text}\n`);
    },
    update(label, done, total) {
      if (opts.tty) {
        // \r to the line's start, ESC [K clears what a longer line left.
        opts.write(`\r\u001b[K${barLine(label, done, total, columns)}`);
        drawing = true;
        if (total > 0 && done >= total) finish();
        return;
      }
      const quarter = total > 0 ? Math.floor((4 * Math.min(done, total)) / total) : 4;
      if (lastQuarter.get(label) === quarter) return;
      lastQuarter.set(label, quarter);
      opts.write(`• ${label}: ${done}/${total}\n`);
      if (quarter === 4) lastQuarter = new Map([...lastQuarter].filter(([l]) => l !== label));
    },
    end: finish,
  };
}
