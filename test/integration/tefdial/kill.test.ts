/**
 * The TEF Dial convention's crash rules with the daemon SIGKILLed and the PDV silenced: a request
 * the daemon took in hand is answered after its restart, the same sale, charged once; a sale whose
 * CNF/NCN never came (the PDV died after its answer) is undone at the PDV's next request, never
 * confirmed. The independent PDV (test/helpers/tef-pdv.ts) over real folders; the sandbox host on loopback.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { spawnDaemonChild, type DaemonChild } from '../../helpers/daemon-child.js';
import { startHarness, type Harness } from '../../helpers/sandbox.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { writeSupervisorPassword } from '../../../src/operations/index.js';
import { pdvFile, TefPdv, type Exchange } from '../../helpers/tef-pdv.js';

const tempDir = useTempDirs();
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
const children: DaemonChild[] = [];
afterAll(async () => {
  // A test that failed half-way leaves no daemon behind.
  for (const c of children) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
  await Promise.all(children.map((c) => c.exit));
  await h.close();
});

function daemon(stateDir: string, base: string, env: Record<string, string> = {}): DaemonChild {
  const c = spawnDaemonChild('test/integration/tefdial/tef-daemon-child.ts', [], {
    host: h.running,
    stateDir,
    env: {
      OMNIPOS_TEF_DIAL__ENABLED: 'true',
      OMNIPOS_TEF_DIAL__DIR: base,
      OMNIPOS_PAYMENTS__CLOSE_MARGIN_SECONDS: '0',
      ...env,
    },
  });
  children.push(c);
  return c;
}

async function ready(d: DaemonChild): Promise<void> {
  await expect.poll(() => d.out(), { timeout: 60_000, interval: 50 }).toContain('ready');
}

async function stop(d: DaemonChild): Promise<void> {
  d.child.kill('SIGTERM');
  await d.exit;
}

it('the daemon SIGKILLed with a sale approved and unanswered: answered after the restart, confirmed once', async () => {
  const stateDir = tempDir();
  const base = tempDir();
  const pdv = new TefPdv(path.join(base, 'REQ'), path.join(base, 'RESP'));
  const killed = daemon(stateDir, base, { KILL_AT: 'state:awaiting-decision' });
  // The PDV's request waits in its folder; the daemon takes it in hand, answers IntPos.Sts and dies.
  const first = pdv.exchange(
    pdvFile([
      ['000-000', 'CRT'],
      ['001-000', '9001'],
      ['003-000', '2510'],
    ]),
    { id: '9001', answer: true, statusMs: 120_000, answerMs: 120_000 },
  );
  expect((await killed.exit).signal, killed.err()).toBe('SIGKILL');
  expect(existsSync(path.join(base, 'REQ', 'IntPos.001.working'))).toBe(true);
  expect(existsSync(path.join(base, 'RESP', 'IntPos.001'))).toBe(false);
  const restarted = daemon(stateDir, base);
  try {
    const x = await first;
    expect(x.status).toMatchObject({ '000-000': 'CRT', '001-000': '9001' });
    const r = x.response!;
    expect(r['009-000']).toBe('0');
    await pdv.decide('CNF', '9002', r);
    await expect
      .poll(async () => (await h.ledger()).sales.filter((s) => s.merchantOrderId === r['027-000']), { timeout: 20_000 })
      .toEqual([expect.objectContaining({ confirmationStatus: 1, charged: 2510 })]);
    expect(existsSync(path.join(base, 'REQ', 'IntPos.001.working'))).toBe(false);
  } finally {
    await stop(restarted);
  }
}, 180_000);

it('the PDV dies after its answer (no CNF/NCN), the daemon SIGKILLed too: the sale is undone at the next request, never charged', async () => {
  const stateDir = tempDir();
  const base = tempDir();
  const pdv = new TefPdv(path.join(base, 'REQ'), path.join(base, 'RESP'));
  const one = daemon(stateDir, base);
  let lost: Record<string, string>;
  try {
    await ready(one);
    lost = (await pdv.crt('9101', 2610)).response!;
    expect(lost['009-000']).toBe('0');
  } finally {
    one.child.kill('SIGKILL');
    await one.exit;
  }
  const two = daemon(stateDir, base);
  try {
    await ready(two);
    // The PDV, restarted, goes on with its next sale: the lost one is undone first.
    const next = (await pdv.crt('9102', 2710)).response!;
    expect(next['009-000']).toBe('0');
    await pdv.decide('CNF', '9103', next);
    await expect
      .poll(
        async () => {
          const sales = (await h.ledger()).sales;
          return [
            sales.filter((s) => s.merchantOrderId === lost['027-000']).reduce((a, s) => a + s.charged, 0),
            sales.filter((s) => s.merchantOrderId === next['027-000']).reduce((a, s) => a + s.charged, 0),
          ];
        },
        { timeout: 20_000 },
      )
      .toEqual([0, 2710]);
  } finally {
    await stop(two);
  }
}, 180_000);

it('the daemon stopped (its own stop, as at SIGTERM) while the card is read: the request stays in hand and is answered after the start, nothing charged twice', async () => {
  const stateDir = tempDir();
  const base = tempDir();
  const pdv = new TefPdv(path.join(base, 'REQ'), path.join(base, 'RESP'));
  const stopped = daemon(stateDir, base, { STOP_AT: 'state:card-read' });
  const first = pdv.exchange(
    pdvFile([
      ['000-000', 'CRT'],
      ['001-000', '9201'],
      ['003-000', '2810'],
    ]),
    {
      id: '9201',
      answer: true,
      statusMs: 120_000,
      answerMs: 120_000,
    },
  );
  const exit = await stopped.exit;
  expect(exit, stopped.err()).toEqual({ code: 0, signal: null });
  expect(existsSync(path.join(base, 'REQ', 'IntPos.001.working'))).toBe(true);
  const restarted = daemon(stateDir, base);
  try {
    const r = (await first).response!;
    expect(r['001-000']).toBe('9201');
    const charged = async (): Promise<number> =>
      (await h.ledger()).sales.filter((s) => s.merchantOrderId === r['027-000']).reduce((a, s) => a + s.charged, 0);
    if (r['009-000'] === '0') {
      await pdv.decide('CNF', '9202', r);
      await expect.poll(charged, { timeout: 20_000 }).toBe(2810);
    } else expect(await charged()).toBe(0);
    // The request in hand is removed only after its answer is on disk, so the PDV may read the answer first.
    await expect.poll(() => existsSync(path.join(base, 'REQ', 'IntPos.001.working')), { timeout: 10_000 }).toBe(false);
  } finally {
    await stop(restarted);
  }
}, 180_000);

it('the daemon SIGKILLed mid-void, its request already blanked of the password: the void answered after the restart, no password left on the disk', async () => {
  const stateDir = tempDir();
  const base = tempDir();
  writeSupervisorPassword(path.join(stateDir, 'supervisor-password'), 'gerente2026');
  const pdv = new TefPdv(path.join(base, 'REQ'), path.join(base, 'RESP'));
  const killed = daemon(stateDir, base, { KILL_AT: 'state:voiding' });
  let sale: Record<string, string>;
  const link = path.join(base, 'kept-cnc');
  let cnc: Promise<Exchange>;
  try {
    await ready(killed);
    sale = (await pdv.crt('9301', 2910)).response!;
    expect(sale['009-000']).toBe('0');
    await pdv.decide('CNF', '9302', sale);
    await expect
      .poll(async () => (await h.ledger()).sales.filter((s) => s.merchantOrderId === sale['027-000']), {
        timeout: 20_000,
      })
      .toEqual([expect.objectContaining({ confirmationStatus: 1 })]);
    cnc = pdv.exchange(
      pdvFile([
        ['000-000', 'CNC'],
        ['001-000', '9303'],
        ['003-000', '2910'],
        ['012-000', sale['012-000']!],
        ['022-000', sale['022-000']!],
        ['900-000', 'gerente2026'],
      ]),
      { id: '9303', answer: true, statusMs: 120_000, answerMs: 120_000, link },
    );
    expect((await killed.exit).signal, killed.err()).toBe('SIGKILL');
  } finally {
    killed.child.kill('SIGKILL');
  }
  // Killed after the blanking: the request in hand carries no password any more.
  expect(existsSync(path.join(base, 'REQ', 'IntPos.001.working'))).toBe(true);
  expect(readFileSync(link, 'latin1')).not.toContain('gerente2026');
  const restarted = daemon(stateDir, base);
  try {
    // The void the identification started is found by the ledger: answered without the password.
    const r = (await cnc).response!;
    expect(r).toMatchObject({ '000-000': 'CNC', '001-000': '9303', '025-000': sale['012-000'] });
    expect(r['030-000']).not.toMatch(/SUPERVISOR/);
    expect(readFileSync(link, 'latin1')).toMatch(/\r\n900-000 = +\r\n999-999 = 0\r\n$/);
  } finally {
    await stop(restarted);
  }
}, 180_000);
