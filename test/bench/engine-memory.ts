/**
 * `npm run bench:memory -- [--sales N] [--dir DIR]`: memory after N whole sales (default 10,000)
 * with the devices and the host answering at once. Run with --expose-gc (the npm script does).
 * A leak shows as heap growing with N; the journal itself lives on disk.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { instantTerminal } from '../helpers/instant-terminal.js';

const { values } = parseArgs({ options: { sales: { type: 'string', default: '10000' }, dir: { type: 'string' } } });
const sales = Number(values.sales);
const dir = values.dir ?? mkdtempSync(path.join(tmpdir(), 'omnipos-memory-'));
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const mb = (n: number) => Math.round((n / 1048576) * 10) / 10;

const t = await instantTerminal(dir);
for (let i = 0; i < 100; i++) await t.sale();
gc();
const before = process.memoryUsage();
const started = Date.now();
for (let i = 0; i < sales; i++) await t.sale();
const seconds = (Date.now() - started) / 1000;
gc();
const after = process.memoryUsage();
console.log(
  JSON.stringify({
    sales,
    dir,
    seconds: Math.round(seconds * 10) / 10,
    salesPerSecond: Math.round(sales / seconds),
    heapUsedMB: { afterWarmup: mb(before.heapUsed), afterSales: mb(after.heapUsed) },
    rssMB: { afterWarmup: mb(before.rss), afterSales: mb(after.rss) },
    journalRows: (t.db.prepare('SELECT count(*) AS n FROM journal').get() as { n: number }).n,
  }),
);
t.db.close();
