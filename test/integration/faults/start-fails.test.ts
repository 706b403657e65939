import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from '../../../src/store/sqlite.js';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { isOmniposError } from '../../../src/core/errors/index.js';
import { createLogger } from '../../../src/core/log/index.js';
import { startDaemon } from '../../../src/main.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { accepts, holdPort, killAll, spawnCli, stderrLines } from '../../helpers/cli-process.js';
import { shippedConfig, writeConfig } from '../../helpers/config.js';

// Issue 23, "a start that fails, exits": real processes (the CLI under tsx), real ports.
const tempDir = useTempDirs();
afterEach(killAll);

/** A site configuration: the shipped default with `patch` over it, its relative files made absolute. */
function siteConfig(state: string, patch: Record<string, unknown>): string {
  return writeConfig(path.join(state, 'site.json'), { ...shippedConfig(), stateDir: state, ...patch });
}

/** Generous: the machine is shared; the old code never exits at all. */
const EXIT_MS = 45_000;

describe('omnipos run: a start that fails exits', () => {
  it("the API's port held by another process: one line naming it, exit 3, nothing left running", async () => {
    const taken = await holdPort();
    try {
      const state = tempDir();
      const p = spawnCli(['run'], { OMNIPOS_STATE_DIR: state, OMNIPOS_API__PORT: String(taken.port) });
      const exit = await p.exitWithin(EXIT_MS);
      expect(exit, `stdout: ${p.out().slice(-1500)}\nstderr: ${p.err()}`).toEqual({ code: 3, signal: null });
      const lines = stderrLines(p);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`127.0.0.1:${taken.port}`);
      expect(lines[0]).toContain("the cash register's API");
      expect(lines[0]).toContain('[START_LISTEN_FAILED]');
      // The state directory is free again: a daemon starts there at once.
      const next = spawnCli(['run'], { OMNIPOS_STATE_DIR: state });
      await next.waitFor('omnipos started');
      next.kill('SIGTERM');
      expect(await next.exitWithin(EXIT_MS)).toEqual({ code: 0, signal: null });
    } finally {
      await taken.close();
    }
  });

  it("the embedded sandbox host's port held: the same, naming the sandbox host", async () => {
    const taken = await holdPort();
    try {
      const p = spawnCli(['run'], { OMNIPOS_STATE_DIR: tempDir(), OMNIPOS_SANDBOX__PORT: String(taken.port) });
      expect(await p.exitWithin(EXIT_MS)).toEqual({ code: 3, signal: null });
      expect(stderrLines(p)).toEqual([
        expect.stringMatching(
          new RegExp(
            `the embedded sandbox host cannot listen on 127\\.0\\.0\\.1:${taken.port}.*\\[START_LISTEN_FAILED\\]`,
          ),
        ),
      ]);
    } finally {
      await taken.close();
    }
  });

  it('omnipos sandbox on a held port: one line, exit 3', async () => {
    const taken = await holdPort();
    try {
      const p = spawnCli(['sandbox', '--port', String(taken.port)], { OMNIPOS_STATE_DIR: tempDir() });
      expect(await p.exitWithin(EXIT_MS)).toEqual({ code: 3, signal: null });
      expect(stderrLines(p)).toEqual([
        expect.stringMatching(
          new RegExp(
            `sandbox host cannot listen on 127\\.0\\.0\\.1:${taken.port}: the address is in use.*\\[START_LISTEN_FAILED\\]`,
          ),
        ),
      ]);
    } finally {
      await taken.close();
    }
  });

  it('two daemons on one state directory: the second refuses at once (exit 3), the first keeps selling on an intact journal', async () => {
    const state = tempDir();
    const first = spawnCli(['run'], { OMNIPOS_STATE_DIR: state });
    await first.waitFor('omnipos started');
    const second = spawnCli(['run'], { OMNIPOS_STATE_DIR: state });
    expect(await second.exitWithin(EXIT_MS)).toEqual({ code: 3, signal: null });
    expect(stderrLines(second)).toEqual([
      expect.stringMatching(
        new RegExp(`another omnipos daemon \\(pid ${first.pid}\\) holds the state directory .*\\[STATE_DIR_LOCKED\\]`),
      ),
    ]);
    // The second never opened the database: no "database migrated", no pinpad, no listener.
    expect(second.out()).not.toContain('omnipos.db');
    const api = (
      JSON.parse(
        first
          .out()
          .split('\n')
          .find((l) => l.includes('omnipos started'))!,
      ) as { api: string }
    ).api;
    expect(await accepts(Number(new URL(api).port))).toBe(true);
    first.kill('SIGTERM');
    expect(await first.exitWithin(EXIT_MS)).toEqual({ code: 0, signal: null });
    const db = new Database(path.join(state, 'omnipos.db'), { readonly: true });
    try {
      expect(db.pragma('quick_check', { simple: true })).toBe('ok');
    } finally {
      db.close();
    }
  });

  it('a configuration that cannot be read: one line naming the file, exit 2', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'omnipos.json');
    mkdirSync(file); // a folder where the file should be: EISDIR, unreadable even for root
    const p = spawnCli(['run'], { OMNIPOS_CONFIG: file });
    expect(await p.exitWithin(EXIT_MS)).toEqual({ code: 2, signal: null });
    expect(stderrLines(p)).toEqual([
      expect.stringMatching(new RegExp(`configuration ${file} is invalid: .*EISDIR.*\\[CONFIG_INVALID\\]`)),
    ]);
  });

  it('a required pinpad serial path that does not exist: the daemon starts out of service (not a restart loop) and SIGTERM ends it', async () => {
    const state = tempDir();
    const config = siteConfig(state, {
      pinpad: { device: { kind: 'serial', path: path.join(state, 'no-such-ttyACM0') } },
    });
    const p = spawnCli(['run'], { OMNIPOS_CONFIG: config });
    await p.waitFor('omnipos started');
    p.kill('SIGTERM');
    expect(await p.exitWithin(EXIT_MS)).toEqual({ code: 0, signal: null });
  });
});

describe('omnipos run: SIGTERM at any moment of start-up or shutdown', () => {
  for (const moment of ['database migrated', 'pinpad connected', 'omnipos started']) {
    it(`SIGTERM once "${moment}" is logged: exits 0, the state directory free again`, async () => {
      const state = tempDir();
      const p = spawnCli(['run'], { OMNIPOS_STATE_DIR: state });
      await p.waitFor(moment);
      p.kill('SIGTERM');
      expect(await p.exitWithin(EXIT_MS)).toEqual({ code: 0, signal: null });
      expect(p.err()).toBe('');
      const next = spawnCli(['run'], { OMNIPOS_STATE_DIR: state });
      await next.waitFor('omnipos started');
      next.kill('SIGTERM');
      expect(await next.exitWithin(EXIT_MS)).toEqual({ code: 0, signal: null });
    });
  }

  it('a second SIGTERM during the stop ends the process at once', async () => {
    const p = spawnCli(['run'], { OMNIPOS_STATE_DIR: tempDir() });
    await p.waitFor('omnipos started');
    p.kill('SIGTERM');
    p.kill('SIGTERM');
    const exit = await p.exitWithin(EXIT_MS);
    expect(exit).not.toBe('still running');
  });
});

describe('startDaemon: a failed start releases what it opened (in this process)', () => {
  it('the API port taken: rejects with START_LISTEN_FAILED and leaves no listener, socket or lock behind', async () => {
    const state = tempDir();
    const config = loadConfig({ env: { OMNIPOS_STATE_DIR: state } });
    const log = createLogger({ level: 'silent' });
    const taken = await holdPort();
    const count = (): Record<string, number> => {
      const c: Record<string, number> = {};
      for (const r of process.getActiveResourcesInfo()) c[r] = (c[r] ?? 0) + 1;
      return c;
    };
    const before = count();
    try {
      const err = await startDaemon({ config, log, env: {}, sandboxPort: 0, apiPort: taken.port }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isOmniposError(err, 'START_LISTEN_FAILED')).toBe(true);
      // Sockets close asynchronously: give the loop a few turns.
      for (let i = 0; i < 50 && (count().TCPServerWrap ?? 0) > (before.TCPServerWrap ?? 0); i++)
        await new Promise((r) => setTimeout(r, 20));
      const after = count();
      expect(after.TCPServerWrap ?? 0).toBe(before.TCPServerWrap ?? 0);
      expect(after.TCPSocketWrap ?? 0).toBeLessThanOrEqual(before.TCPSocketWrap ?? 0);
      // The lock and the database are closed: the same state directory starts now.
      const daemon = await startDaemon({ config, log, env: {}, sandboxPort: 0, apiPort: 0 });
      await daemon.stop();
    } finally {
      await taken.close();
    }
  });

  it('a stop asked for while starting: rejects with StartAborted, the state directory free again', async () => {
    const state = tempDir();
    const config = loadConfig({ env: { OMNIPOS_STATE_DIR: state } });
    const log = createLogger({ level: 'silent' });
    const controller = new AbortController();
    controller.abort();
    const err = await startDaemon({ config, log, env: {}, sandboxPort: 0, apiPort: 0, signal: controller.signal }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((err as Error).name).toBe('StartAborted');
    const daemon = await startDaemon({ config, log, env: {}, sandboxPort: 0, apiPort: 0 });
    await daemon.stop();
  });
});

describe('omnipos run: the database held by another program', () => {
  it('a writer holding omnipos.db (not a daemon): one line naming the file, exit 3, the file untouched', async () => {
    const state = tempDir();
    const file = path.join(state, 'omnipos.db');
    const other = new Database(file);
    other.pragma('journal_mode = WAL');
    other.exec('CREATE TABLE theirs (x); BEGIN EXCLUSIVE; INSERT INTO theirs VALUES (1)');
    try {
      const p = spawnCli(['run'], { OMNIPOS_STATE_DIR: state });
      expect(await p.exitWithin(EXIT_MS)).toEqual({ code: 3, signal: null });
      expect(stderrLines(p)).toEqual([
        expect.stringMatching(new RegExp(`${file.replace(/[.]/g, '\\.')}.*locked.*\\[STORE_OPEN_FAILED\\]`)),
      ]);
    } finally {
      other.exec('COMMIT');
      other.close();
    }
  });
});
