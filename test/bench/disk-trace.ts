import type { OwnFigures } from './disk-sales.js';

/** Per file (grouped by what it is), the writes and fsyncs strace saw between the two markers. */
export interface FileCounts {
  writes: number;
  bytes: number;
  fsyncs: number;
}

export interface Figures {
  files: Record<string, FileCounts>;
  own: OwnFigures;
}

/** What a path is, for the table: the terminal's database, its WAL, the host's (sandbox) files, logs… */
export function groupOf(file: string): string {
  if (file.endsWith('.marker')) return 'marker';
  if (/\/sandbox\//.test(file)) return `sandbox ${file.replace(/^.*\//, '')}`;
  if (/\/state\/omnipos\.db$/.test(file)) return 'terminal omnipos.db';
  if (/\/state\/omnipos\.db-wal$/.test(file)) return 'terminal omnipos.db-wal';
  if (/\/state\/omnipos\.db-shm$/.test(file)) return 'terminal omnipos.db-shm';
  if (/\/state\/logs\//.test(file)) return 'terminal logs';
  if (/\/state\//.test(file)) return `terminal ${file.replace(/^.*\/state\//, '')}`;
  if (/^(pipe|socket|anon_inode|\/dev\/)/.test(file)) return 'not a file';
  return `other ${file}`;
}

const CALL = /^\d+\s+(\w+)\((\d+)<([^>]*)>.*\)\s+=\s+(-?\d+)/;

/** strace's lines (`-f -y`) between the writes to start.marker and end.marker, counted per file group. */
export function parseTrace(text: string): Omit<Figures, 'own'> {
  const files: Record<string, FileCounts> = {};
  let on = false;
  for (const line of text.split('\n')) {
    const m = CALL.exec(line);
    if (!m) continue;
    const [, call, , file, ret] = m as unknown as [string, string, string, string, string];
    if (file.endsWith('start.marker')) on = true;
    if (file.endsWith('end.marker')) on = false;
    if (!on) continue;
    const g = groupOf(file);
    if (g === 'marker' || g === 'not a file') continue;
    const c = (files[g] ??= { writes: 0, bytes: 0, fsyncs: 0 });
    if (call === 'fsync' || call === 'fdatasync') c.fsyncs++;
    else if (Number(ret) > 0) {
      c.writes++;
      c.bytes += Number(ret);
    }
  }
  return { files };
}

/** The figures per sale, as bench:disk prints them. */
export function perSale(f: Figures): Record<string, string> {
  const n = f.own.sales;
  const per = (v: number): string => (v / n).toFixed(2);
  const kib = (v: number): string => `${(v / n / 1024).toFixed(1)} KiB`;
  const sum = (pred: (g: string) => boolean, k: keyof FileCounts): number =>
    Object.entries(f.files)
      .filter(([g]) => pred(g))
      .reduce((a, [, c]) => a + c[k], 0);
  const terminal = (g: string): boolean => g.startsWith('terminal ');
  const out: Record<string, string> = { sales: String(n) };
  for (const [g, c] of Object.entries(f.files).sort())
    out[`${g}: writes, bytes, fsyncs per sale`] = `${per(c.writes)}, ${kib(c.bytes)}, ${per(c.fsyncs)}`;
  out['terminal, all files: bytes per sale'] = kib(sum(terminal, 'bytes'));
  out['terminal, all files: fsyncs per sale'] = per(sum(terminal, 'fsyncs'));
  // A transition is one commit (a row's opening carries its first), an order id one (its counter);
  // an outbox task rides transitions (recorded with the one announcing it, settled with the one its
  // outcome causes, in the forwarder's one transaction).
  out['minimum durable commits per sale (transitions + order ids)'] = per(f.own.transitions + f.own.journalRows);
  out['journal transitions per sale'] = per(f.own.transitions);
  out['process write_bytes per sale (/proc/self/io, terminal and host)'] = kib(f.own.writeBytes);
  out['device sectors written per sale (shared device: an upper bound)'] =
    f.own.deviceSectorsWritten === null ? 'n/a' : kib(f.own.deviceSectorsWritten * 512);
  out['device flushes per sale (shared device)'] = f.own.deviceFlushes === null ? 'n/a' : per(f.own.deviceFlushes);
  return out;
}
