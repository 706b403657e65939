import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedSandbox } from '../../../src/cli/embedded-sandbox.js';
import { loadConfig } from '../../../src/config/index.js';
import { createLogger } from '../../../src/core/log/index.js';

/**
 * The daemon's embedded sandbox repeats a cents outcome on every attempt by default, as the public
 * sandbox does (Conecta pt page 2019-07-10-cielo-conecta.md lines 1290-1300): on 4ef2f17 the
 * configuration's `sandbox.outcomeAttempts` defaulted to 1, so every embedded host ran `first-n`.
 */
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function scenarioOf(sandbox: Record<string, unknown>): Promise<{ outcomes: string; firstN: number }> {
  const stateDir = mkdtempSync(path.join(tmpdir(), 'omnipos-embedded-'));
  dirs.push(stateDir);
  const config = loadConfig({
    env: { OMNIPOS_STATE_DIR: stateDir, OMNIPOS_SANDBOX: JSON.stringify({ embedded: true, port: 0, ...sandbox }) },
  });
  const running = await startEmbeddedSandbox(config, createLogger({ level: 'silent' }));
  if (!running) throw new Error('no embedded sandbox');
  try {
    const r = await request(`${running.url}/sandbox/scenario`);
    return (await r.body.json()) as { outcomes: string; firstN: number };
  } finally {
    await running.close();
  }
}

describe('the embedded sandbox host', () => {
  it('repeats cents outcomes on every attempt by default; sandbox.outcomeAttempts asks for first-n', async () => {
    expect(loadConfig({ env: {} }).values.sandbox.outcomeAttempts).toBeUndefined();
    expect((await scenarioOf({})).outcomes).toBe('repeat');
    expect(await scenarioOf({ outcomeAttempts: 2 })).toMatchObject({
      outcomes: 'first-n',
      firstN: 2,
    });
  });
});
