/**
 * The chaos run (300 sales, seed 4242) ended with four sales `awaiting-decision` that the host
 * confirmed at its close: the host's clock had moved hours ahead (the brown-out), each sale's
 * decision deadline was written in host time, and after a SIGKILL the restarted daemon's recovery
 * compared it with its own clock — the host's offset is learnt only from the first answer after
 * start — and armed a timer for the hours between the two clocks. Every restart did the same, and
 * the deadline never came. Here: the host hours ahead, a sale for the cash register killed the
 * moment it waits for the decision, a restart: the deadline passes as soon as the terminal learns
 * the host's time, and the sale is undone.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { nextDailyClose } from '../../../src/engine/daily-close.js';
import { spawnDaemonChild } from '../../helpers/daemon-child.js';
import { scanForCardData } from '../../helpers/scan-card-data.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { startHarness, type Harness } from '../../helpers/sandbox.js';

const tempDir = useTempDirs();
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ withholdMs: 3000 });
});
afterAll(async () => {
  await h.close();
});

function child(
  mode: 'sale' | 'recover',
  stateDir: string,
  env: Record<string, string>,
): Promise<{ code: number | null; signal: string | null; out: string; err: string }> {
  const p = spawnDaemonChild('test/integration/chaos/daemon-child.ts', [mode], {
    host: h.running,
    stateDir,
    env: { OMNIPOS_ACQUIRER__TIMEOUT_MS: '1000', ...env },
  });
  return p.exit.then(({ code, signal }) => ({ code, signal, out: p.out(), err: p.err() }));
}

it(
  'the host hours ahead, killed awaiting the decision: after the restart the deadline passes on the host clock and the sale is undone',
  { timeout: 120_000 },
  async () => {
    // The host's clock an hour past a close at least three hours ahead of the terminal's own clock
    // (as the brown-out left it): far from the next close, so the decision deadline is not clamped.
    const hostNow = new Date(nextDailyClose(new Date(Date.now() + 3 * 3_600_000)).getTime() + 3_600_000);
    expect((await h.control('POST', '/sandbox/clock', { now: hostNow.toISOString() })).status).toBe(200);
    const stateDir = tempDir();
    const common = { OMNIPOS_PAYMENTS__ECR_DECISION_SECONDS: '1' };
    const sale = await child('sale', stateDir, {
      ...common,
      KILL_AT: 'state:awaiting-decision',
      SALE_AMOUNT: '1710',
      SALE_CONFIRMATION: 'ecr',
    });
    expect(sale.signal, sale.err).toBe('SIGKILL');
    // The recovering daemon waits (bounded, ~20 s) until no sale awaits a decision; the old code's
    // timer was armed for the hours between the clocks and the sale stayed awaiting-decision.
    const recovered = await child('recover', stateDir, common);
    expect(recovered.code, recovered.err).toBe(0);
    const { journal, outbox } = JSON.parse(recovered.out.trim().split('\n').at(-1)!) as {
      journal: { merchantOrderId: string; state: string; data: { deadline?: string; reason?: string } }[];
      outbox: { pending: number };
    };
    expect(journal).toHaveLength(1);
    const row = journal[0]!;
    // The deadline was written in host time: hours ahead of the terminal's own clock.
    expect(Date.parse(row.data.deadline ?? '') - Date.now()).toBeGreaterThan(3_600_000);
    expect(row).toMatchObject({ state: 'undone', data: { reason: 'no decision before the deadline' } });
    expect(outbox.pending).toBe(0);
    const ledger = await h.ledger();
    const charges = ledger.sales.filter((s) => s.merchantOrderId === row.merchantOrderId);
    expect(charges).toHaveLength(1);
    expect(charges[0]!.charged).toBe(0);
    expect(ledger.problems.filter((p) => p.merchantOrderId === row.merchantOrderId)).toEqual([]);
    expect(scanForCardData(stateDir)).toEqual([]);
  },
);
