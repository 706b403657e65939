import { statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanForCardData } from '../../helpers/scan-card-data.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { startHarness, type Harness } from '../../helpers/sandbox.js';
import { spawnDaemonChild } from '../../helpers/daemon-child.js';

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

const FINAL = ['confirmed', 'undone', 'aborted', 'declined'];

it('the card-data scan finds a PAN planted in a file (the scan can fail)', () => {
  const dir = tempDir();
  writeFileSync(path.join(dir, 'x.log'), 'noise 4761730000000060 noise');
  expect(scanForCardData(dir)).toEqual(['x.log: 476173…']);
});

describe('the daemon killed (SIGKILL) at every step of a sale loses nothing and charges nothing twice', () => {
  it.each([
    // Amounts differ so each case meets the sandbox's cents outcome on its first attempt.
    ['state:started', '1010', 'auto', ['aborted']],
    ['state:card-read', '1110', 'auto', ['aborted']],
    // Killed right after 'authorizing' is committed the request may never have left: a sale the host never
    // recorded stays 'undoing' (undone by order id and queried again) until the close of its day (issue 17).
    ['state:authorizing', '1210', 'auto', ['undone', 'undoing']],
    ['state:authorizing+400', '1312', 'auto', ['undone', 'undoing']],
    ['state:finishing-chip', '1410', 'auto', ['undone']],
    ['state:approved', '1510', 'auto', ['undone']],
    ['state:confirming', '1610', 'auto', ['confirmed']],
    ['state:awaiting-decision', '1710', 'ecr', ['undone']],
    ['state:undoing', '1812', 'auto', ['undone']],
  ])('killed at %s (amount %s, confirmation %s) → %j', async (killAt, amount, confirmation, expected) => {
    const stateDir = tempDir();
    const sale = await child('sale', stateDir, {
      KILL_AT: killAt,
      SALE_AMOUNT: amount,
      SALE_CONFIRMATION: confirmation,
      OMNIPOS_PAYMENTS__ECR_DECISION_SECONDS: '1',
    });
    expect(sale.signal, sale.err).toBe('SIGKILL');
    const recovered = await child('recover', stateDir, { OMNIPOS_PAYMENTS__ECR_DECISION_SECONDS: '1' });
    expect(recovered.code, recovered.err).toBe(0);
    const { journal, outbox } = JSON.parse(recovered.out.trim().split('\n').at(-1)!) as {
      journal: { merchantOrderId: string; state: string }[];
      outbox: { pending: number };
    };
    expect(journal).toHaveLength(1);
    const row = journal[0]!;
    const merchantOrderId = row.merchantOrderId;
    expect(expected).toContain(row.state);
    const ledger = await h.ledger();
    const charges = ledger.sales.filter((s) => s.merchantOrderId === merchantOrderId);
    // Not found is never final before the close: only a sale the host never recorded may still be undoing.
    if (row.state === 'undoing') expect(charges).toEqual([]);
    else {
      expect(FINAL).toContain(row.state);
      expect(outbox.pending).toBe(0);
    }

    expect(charges.length).toBeLessThanOrEqual(1);
    const charged = charges.reduce((a, s) => a + s.charged, 0);
    if (row.state === 'confirmed') expect(charges[0]).toMatchObject({ confirmationStatus: 1, charged: Number(amount) });
    else expect(charged).toBe(0);
    expect(ledger.problems.filter((p) => p.merchantOrderId === merchantOrderId)).toEqual([]);
    // The scan reads the database, its WAL and the debug logs; it must have something to read.
    expect(statSync(path.join(stateDir, 'logs', 'omnipos.log')).size).toBeGreaterThan(0);
    expect(scanForCardData(stateDir)).toEqual([]);
  });

  // Killed in `printing` (committed before the receipt's bytes leave): attended, recovery asks the
  // cashier "did the receipt come out?" (undone at the deadline without an answer); unattended,
  // nobody can confirm the customer got it, so it is undone.
  it.each([
    ['state:printing', '1910', { RECEIPT_ANSWER: 'no' }, ['undone'], 1],
    ['state:printing', '2010', { RECEIPT_ANSWER: 'yes' }, ['confirmed'], 1],
    ['state:printing', '2110', {}, ['undone'], 1],
    ['state:printing+10', '2210', { RECEIPT_ANSWER: 'yes' }, ['confirmed'], undefined],
    ['state:printing', '2310', { OMNIPOS_TERMINAL__MODE: 'unattended' }, ['undone'], 0],
  ] as const)('killed at %s (amount %s, %j) → %j', async (killAt, amount, env, expected, questions) => {
    const stateDir = tempDir();
    const common = {
      OMNIPOS_PAYMENTS__ECR_DECISION_SECONDS: '1',
      ...('OMNIPOS_TERMINAL__MODE' in env ? { OMNIPOS_TERMINAL__MODE: env.OMNIPOS_TERMINAL__MODE } : {}),
    };
    const sale = await child('sale', stateDir, {
      ...common,
      KILL_AT: killAt,
      SALE_AMOUNT: amount,
      SALE_CONFIRMATION: 'auto',
    });
    expect(sale.signal, sale.err).toBe('SIGKILL');
    const recovered = await child('recover', stateDir, {
      ...common,
      ...('RECEIPT_ANSWER' in env ? { RECEIPT_ANSWER: env.RECEIPT_ANSWER } : {}),
    });
    expect(recovered.code, recovered.err).toBe(0);
    const { journal, outbox } = JSON.parse(recovered.out.trim().split('\n').at(-1)!) as {
      journal: { id: number; merchantOrderId: string; state: string }[];
      outbox: { pending: number };
    };
    expect(journal).toHaveLength(1);
    const row = journal[0]!;
    expect(expected).toContain(row.state);
    expect(outbox.pending).toBe(0);
    if (questions === 1) expect(recovered.err).toContain(`receipt questions: [${row.id}]`);
    if (questions === 0) expect(recovered.err).not.toContain('receipt questions');
    const ledger = await h.ledger();
    const charges = ledger.sales.filter((s) => s.merchantOrderId === row.merchantOrderId);
    expect(charges.length).toBeLessThanOrEqual(1);
    if (row.state === 'confirmed') expect(charges[0]).toMatchObject({ confirmationStatus: 1, charged: Number(amount) });
    else expect(charges.reduce((a, s) => a + s.charged, 0)).toBe(0);
    expect(scanForCardData(stateDir)).toEqual([]);
  });
});
