// Flash wear, measured (issue 35): `npm run bench:disk` runs N card sales (default 200) through a
// real daemon (embedded sandbox host, virtual pinpad and printer, SQLite files on the machine's disk)
// and says what each sale writes and syncs:
// - every write and fsync the process makes, per file, from strace (`-y` names the file of each
//   descriptor): the terminal's database and WAL apart from the embedded host's files, which a real
//   terminal does not have;
// - the process's own counters (/proc/self/io: write_bytes that reached the block layer, syscw);
// - the device's counters (/sys/dev/block/M:m/stat: sectors written, flushes), shared with whatever
//   else the machine does (read them as an upper bound);
// beside the minimum the journal's durability needs: one durable commit (one WAL fsync under
// synchronous=FULL) per journal step that must survive a power cut (a row opened, each transition)
// and per outbox task recorded or settled.
//
//   npm run bench:disk                 200 sales
//   DISK_SALES=1000 npm run bench:disk
//   DISK_JSON=1 npm run bench:disk     the figures as one JSON line
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseTrace, perSale, type Figures } from './disk-trace.js';

const SALES = Number(process.env.DISK_SALES ?? 200);

if (process.env.DISK_BENCH_CHILD !== '1') {
  try {
    execFileSync('strace', ['-V'], { stdio: 'pipe' });
  } catch {
    console.error('bench:disk needs strace (apt-get install strace): it counts every fsync and write per file');
    process.exit(2);
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'omnipos-bench-disk-'));
  const trace = path.join(dir, 'trace.txt');
  const child = spawnSync(
    'strace',
    [
      '-f',
      '-qq',
      '-y',
      '-s',
      '0',
      '-e',
      'trace=fsync,fdatasync,write,pwrite64,writev,pwritev,pwritev2',
      '-o',
      trace,
      process.execPath,
      '--import',
      'tsx',
      new URL(import.meta.url).pathname,
    ],
    { env: { ...process.env, DISK_BENCH_CHILD: '1', DISK_BENCH_DIR: dir }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  if (child.status !== 0) {
    console.error(`the sales failed (exit ${child.status})`);
    process.exit(1);
  }
  const own = JSON.parse(child.stdout.toString('utf8').trim().split('\n').at(-1) as string) as Figures['own'];
  const figures: Figures = { ...parseTrace(readFileSync(trace, 'utf8')), own };
  rmSync(dir, { recursive: true, force: true });
  const table = perSale(figures);
  if (process.env.DISK_JSON === '1') console.log(JSON.stringify({ figures, perSale: table }));
  else for (const [k, v] of Object.entries(table)) console.log(`${k.padEnd(44)} ${v}`);
  process.exit(0);
}

// The child, under strace: the sales.
const { runSales } = await import('./disk-sales.js');
const dir = process.env.DISK_BENCH_DIR as string;
const dev = statSync(dir).dev;
const devStat = (): number[] | undefined => {
  try {
    const majorMinor = `${Math.floor(dev / 256) & 0xfff}:${(dev & 0xff) | ((dev >> 12) & 0xfff00)}`;
    return readFileSync(`/sys/dev/block/${majorMinor}/stat`, 'utf8').trim().split(/\s+/).map(Number);
  } catch {
    return undefined;
  }
};
const io = (): Record<string, number> =>
  Object.fromEntries(
    readFileSync('/proc/self/io', 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split(': '))
      .map(([k, v]) => [k, Number(v)]),
  );
const own = await runSales(dir, SALES, { io, devStat });
process.stdout.write(`${JSON.stringify(own)}\n`);
process.exit(0);
