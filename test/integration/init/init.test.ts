import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Database from '../../../src/store/sqlite.js';
import { describe, expect, it } from 'vitest';
import { virtualMemoryFile } from '../../../src/cli/init-virtual-memory.js';
import { createLogger } from '../../../src/core/log/index.js';
import { InitializationStore } from '../../../src/initialization/index.js';
import { buildSandbox, listenSandbox } from '../../../src/sandbox/index.js';
import { systemClock } from '../../../src/core/clock.js';
import { openTerminalDatabase } from '../../../src/store/index.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { runCliCaptured } from '../../helpers/cli.js';
import { omniposArgs } from '../../helpers/omnipos-process.js';

const tempDir = useTempDirs();
const VERSION = '1763769600001';

/** The default (sandbox) configuration on a fresh state directory; the embedded sandbox on a free port. */
function envFor(state: string): Record<string, string> {
  return { OMNIPOS_STATE_DIR: state, OMNIPOS_CONFIG: '', OMNIPOS_SANDBOX__PORT: '0' };
}

function init(state: string, args: string[] = []) {
  return runCliCaptured(['init', ...args], envFor(state));
}

/** What is in force on the terminal (its database) and in the virtual pinpad's memory. */
function inForce(state: string): {
  tables: string | undefined;
  pinpad: string | undefined;
  pinpadMemory: string | undefined;
} {
  const db = openTerminalDatabase(state, createLogger({ level: 'silent' }));
  try {
    const store = new InitializationStore(db, systemClock);
    const file = virtualMemoryFile(state);
    const memory = existsSync(file)
      ? (JSON.parse(readFileSync(file, 'utf8')) as { tableVersion: string }).tableVersion
      : undefined;
    return { tables: store.currentVersion(), pinpad: store.pinpadTableVersion(), pinpadMemory: memory };
  } finally {
    db.close();
  }
}

/**
 * Makes the embedded sandbox's POST /initialization answer 503 (route `initializationTechnical`),
 * or clears the faults. Faults live in the sandbox's database, so the next `omnipos init` meets them.
 */
async function faults(state: string, fail: boolean): Promise<void> {
  const running = await listenSandbox(
    buildSandbox({ dbFile: path.join(state, 'sandbox', 'acquirer.db'), log: createLogger({ level: 'silent' }) }),
    { port: 0 },
  );
  try {
    const res = fail
      ? await fetch(`${running.url}/sandbox/faults`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ route: 'initializationTechnical', status: 503, times: 10 }),
        })
      : await fetch(`${running.url}/sandbox/faults`, { method: 'DELETE' });
    expect(res.status).toBe(200);
  } finally {
    await running.close();
  }
}

/** The technical parameters the sandbox host recorded for the terminal. */
function recordedTechnical(state: string): Record<string, string> {
  const db = new Database(path.join(state, 'sandbox', 'acquirer.db'), { readonly: true });
  try {
    const row = db.prepare(`SELECT technical FROM terminals WHERE terminal_id = ?`).get('42004201') as
      { technical: string } | undefined;
    return JSON.parse(row?.technical ?? '{}') as Record<string, string>;
  } finally {
    db.close();
  }
}

/** `omnipos init` as a real process; `killAt`: SIGKILL it as soon as its output contains that text. */
function runProcess(
  state: string,
  killAt?: string,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, omniposArgs(['init']), {
      env: { ...process.env, ...envFor(state) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (killAt && out.includes(killAt)) child.kill('SIGKILL');
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('exit', (code, signal) => resolve({ code, signal, out, err }));
  });
}

describe('omnipos init', () => {
  it('first run: technical parameters from GIX sent, tables stored, pinpad loaded; second run: current, load skipped', async () => {
    const state = tempDir();
    const first = await init(state);
    expect(first.err).toBe('');
    expect(first.code).toBe(0);
    const lines = first.out.trim().split('\n');
    expect(lines.every((l) => l.startsWith('• '))).toBe(true);
    expect(first.out).toContain('download: POST /initialization');
    expect(first.out).toContain(`tables version ${VERSION} in force (previous: none)`);
    expect(first.out).toMatch(/pinpad: loading table version 3769600001 \(network \d\d, \d+ TLR commands\)/);
    expect(first.out).toContain('pinpad: table version 3769600001 loaded');
    expect(inForce(state)).toEqual({ tables: VERSION, pinpad: '3769600001', pinpadMemory: '3769600001' });
    // The host received what the virtual pinpad's GIX says (src/sim/pinpad/profile.ts), not placeholders.
    const tech = recordedTechnical(state);
    expect(tech).toMatchObject({
      SerialNumber: 'VPP0000000001',
      SpecificationVersion: '2.20',
      KernelEmvVersion: 'VK 4.3',
      PhysicalCharacteristics: 'PinPadWithChipReaderWithoutSamAndContactless',
    });
    expect(tech.ContactlessModuleVersion).toBe('1.0');
    expect(tech.KernelPayPassVersion).toBe('MC1.0');

    const second = await init(state, ['--json']);
    expect(second.code).toBe(0);
    const report = JSON.parse(second.out) as {
      version: string;
      installed: boolean;
      pinpad: string;
      technical: { SerialNumber: string };
    };
    expect(report).toMatchObject({ version: VERSION, installed: false, pinpad: 'up-to-date' });
    expect(report.technical.SerialNumber).toBe('VPP0000000001');
    const third = await init(state);
    expect(third.out).toContain(`tables version ${VERSION} is current: nothing to store`);
    expect(third.out).toContain('pinpad: already holds table version 3769600001: load skipped');
    expect(third.out).not.toContain('pinpad: loading');
  }, 60_000);

  it('an initialization route that fails: non-zero exit, the previous version stays in force; the next run completes', async () => {
    const state = tempDir();
    await faults(state, true);
    const failed = await init(state);
    expect(failed.code).toBe(3);
    expect(failed.err).toMatch(/ACQUIRER_HTTP|ACQUIRER_UNKNOWN_OUTCOME/);
    expect(failed.out).not.toContain('initialization complete');
    expect(inForce(state)).toEqual({ tables: undefined, pinpad: undefined, pinpadMemory: undefined });

    await faults(state, false);
    const ok = await init(state);
    expect(ok.code).toBe(0);
    expect(inForce(state).tables).toBe(VERSION);

    await faults(state, true);
    const again = await init(state);
    expect(again.code).toBe(3);
    expect(inForce(state)).toEqual({ tables: VERSION, pinpad: '3769600001', pinpadMemory: '3769600001' });
  }, 60_000);

  it('as a real process: plain lines when not a TTY, exit 0, then the versions are current', async () => {
    const state = tempDir();
    const run = () => runProcess(state);
    const first = await run();
    expect(first.err).toBe('');
    expect(first.code).toBe(0);
    expect(first.out).not.toContain('\r');
    expect(first.out).not.toContain('\u001b[');
    expect(first.out).toContain('pinpad: table version 3769600001 loaded');
    const second = await run();
    expect(second.code).toBe(0);
    expect(second.out).toContain('load skipped');
  }, 60_000);

  it('killed (SIGKILL) while storing or while loading the pinpad: the next run completes', async () => {
    for (const at of ['store: writing beside', 'pinpad: loading']) {
      const state = tempDir();
      const killed = await runProcess(state, at);
      expect(killed.signal).toBe('SIGKILL');
      const before = inForce(state);
      // Whatever the kill left, it is one whole version or none, never a mix.
      expect([undefined, VERSION]).toContain(before.tables);
      const next = await runProcess(state);
      expect(next.err).toBe('');
      expect(next.code).toBe(0);
      expect(inForce(state)).toEqual({ tables: VERSION, pinpad: '3769600001', pinpadMemory: '3769600001' });
    }
  }, 240_000);
});
