import { rmSync } from 'node:fs';
import type { LedgerReport, Ws15LedgerRow } from '../../src/sandbox/index.js';
import type { CnpIntent } from './cnp-sales.js';
import { reconcile } from './reconcile.js';
import { sleep, type Terminal } from './terminal.js';

type Alarm = { code: string; context?: Record<string, unknown> };

/**
 * The run's end: the alarms that hold on each terminal (each needs-refund sale must have its
 * NEEDS_REFUND alarm) read before a clean stop, the reconciliation of the journals with the host's
 * ledger (reconcile.ts), the pinpads stopped, and the one JSON report on standard output: the run's
 * `figures` first, then the reconciliation's, the time and the problems. Exits 0 when nothing is wrong;
 * a failed run keeps its state directory `dir` as evidence.
 */
export async function reportAndExit(o: {
  terminals: readonly Terminal[];
  ledger: () => Promise<LedgerReport>;
  /** The webservice 1.5 host's transactions (none when it does not run). */
  ws15Ledger: () => readonly Ws15LedgerRow[];
  closeSandbox: () => Promise<void>;
  intents: ReadonlyMap<string, { decision: string; status: number }>;
  cnpIntents: readonly CnpIntent[];
  figures: Record<string, unknown>;
  started: number;
  dir: string;
}): Promise<never> {
  const alarms = new Map<string, Alarm[]>();
  for (const t of o.terminals) {
    await sleep(200);
    alarms.set(t.name, ((await t.call('GET', '/v1/health')).body.alarms ?? []) as Alarm[]);
    await t.stop();
  }
  const report = reconcile({
    terminals: o.terminals.map((t) => ({ name: t.name, stateDir: t.stateDir, alarms: alarms.get(t.name) ?? [] })),
    ledger: await o.ledger(),
    intents: o.intents,
    ws15: o.ws15Ledger(),
    cnpIntents: o.cnpIntents,
  });
  await o.closeSandbox();
  for (const t of o.terminals) {
    await t.stopPinpad();
    for (const code of t.pinpadExits)
      if (code !== 0) report.problems.push(`the virtual pinpad of ${t.name} ended with ${String(code)}`);
  }
  const seconds = ((Date.now() - o.started) / 1000).toFixed(1);
  console.log(JSON.stringify({ ...o.figures, ...report.figures, seconds, problems: report.problems }, null, 2));
  // Keep the evidence of a failed run (of any, with CHAOS_KEEP=1); clean up a good one.
  if (report.problems.length === 0 && process.env.CHAOS_KEEP !== '1') rmSync(o.dir, { recursive: true, force: true });
  else console.error(`state kept in ${o.dir}`);
  process.exit(report.problems.length === 0 ? 0 : 1);
}
