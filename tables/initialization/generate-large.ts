/**
 * Makes a large variant of the sandbox's initialization answer for benchmarks and tests: the
 * sandbox's products, issuers, EMV and parameters, with `ranges` BIN rows (200,000 by default)
 * that overlap as real tables do: generic ranges spanning many BINs, specific 6-digit BINs and
 * 8-digit sub-ranges nested inside them. Deterministic for a seed.
 *
 *   npx tsx tables/initialization/generate-large.ts [OUT.json] [--ranges N] [--seed S]
 *
 * writes to OUT.json (default var/initialization/large-tables.json; var/ is not committed).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sandbox from './sandbox-tables.json' with { type: 'json' };

type Row = Record<string, unknown>;

/** mulberry32: a small deterministic generator, enough for test data. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface LargeOptions {
  ranges?: number;
  seed?: number;
}

/** The answer of `GET /initialization/...` with `ranges` BIN rows. */
export function generateLargeTables(options: LargeOptions = {}): Row {
  const count = options.ranges ?? 200_000;
  const rnd = random(options.seed ?? 1);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const { $comment: _c, Bins: templates, ...rest } = structuredClone(sandbox) as Row & { Bins: Row[] };
  void _c;
  const bins: Row[] = [];
  const push = (template: Row, InitialBin: string, FinalBin: string, Type: 0 | 1): void => {
    bins.push({ ...template, InitialBin, FinalBin, Type });
  };
  while (bins.length < count) {
    const t = pick(templates);
    const r = rnd();
    const bin = 100000 + Math.floor(rnd() * 900000);
    if (r < 0.02) {
      const width = 1 + Math.floor(rnd() * 2000);
      push(t, String(bin), String(Math.min(999999, bin + width)), 1);
    } else if (r < 0.62) {
      push(t, String(bin), String(bin), 0);
    } else {
      const a = Math.floor(rnd() * 90);
      const b = a + Math.floor(rnd() * 10);
      push(t, `${bin}${String(a).padStart(2, '0')}`, `${bin}${String(b).padStart(2, '0')}`, 0);
    }
  }
  return {
    MerchantId: '1234567890',
    TerminalId: '12345678',
    ...rest,
    Bins: bins,
    InitializationVersion: 1763769600002,
  };
}

function main(argv: string[]): void {
  let out = 'var/initialization/large-tables.json';
  const options: LargeOptions = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--ranges') options.ranges = Number(argv[++i]);
    else if (a === '--seed') options.seed = Number(argv[++i]);
    else out = a;
  }
  const tables = generateLargeTables(options);
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(tables));
  process.stdout.write(`${out}: ${(tables.Bins as Row[]).length} BIN ranges\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
