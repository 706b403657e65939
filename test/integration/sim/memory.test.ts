import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/run.js';
import { parseKsn } from '../../../src/crypto/index.js';
import { cliContext } from '../../helpers/cli.js';
import { startSim, type SimProcess } from '../../helpers/sim-process.js';

// A real pinpad keeps its DUKPT transaction counters in its own memory across power cycles (ANSI
// X9.24-1: a counter is never used twice under one initial key). `omnipos sim pinpad --memory FILE`
// keeps them in FILE: the same virtual pinpad started again, even after a SIGKILL (its power pulled
// right after an answer), goes on from the counter it stopped at.

const dir = mkdtempSync(path.join(tmpdir(), 'omnipos-sim-memory-'));
const memory = path.join(dir, 'pinpad-memory.json');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One stripe read through `omnipos pinpad read-card`: the track 2's KSN counter. */
async function readCounter(sim: SimProcess): Promise<number> {
  const ctx = cliContext({ OMNIPOS_STATE_DIR: dir });
  const picked = await sim.control({ cmd: 'card', choice: { lastDigit: 0, via: 'stripe' } });
  expect(picked.error).toBeUndefined();
  expect(await runCli(['pinpad', 'read-card', '--tcp', `127.0.0.1:${sim.tcp}`, '--json'], ctx)).toBe(0);
  const ksn = (JSON.parse(ctx.stdout) as { track2: { ksn: string } }).track2.ksn;
  return parseKsn(ksn).counter;
}

describe('the virtual pinpad keeps its DUKPT counters across power cycles (--memory)', () => {
  it('started again on its memory file, after a SIGTERM and after a SIGKILL, its KSN only goes forward', async () => {
    const seen: number[] = [];
    for (const stop of ['SIGTERM', 'SIGKILL', 'SIGTERM'] as const) {
      const sim = await startSim(['--memory', memory]);
      try {
        seen.push(await readCounter(sim));
        seen.push(await readCounter(sim));
      } finally {
        await sim.stop(stop);
      }
    }
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1]!);
  }, 60_000);

  it('a memory file it cannot read stops the start with its name, and the file is left as it was', async () => {
    const bad = path.join(dir, 'bad.json');
    const { writeFileSync, readFileSync } = await import('node:fs');
    writeFileSync(bad, '{"format":1,"dukpt":{"pin":-1,"data":3}}');
    await expect(startSim(['--memory', bad])).rejects.toThrow(/pinpad memory .*bad\.json: dukpt\.pin/);
    expect(readFileSync(bad, 'utf8')).toBe('{"format":1,"dukpt":{"pin":-1,"data":3}}');
  }, 30_000);
});
