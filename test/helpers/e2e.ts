/**
 * End-to-end rig: `omnipos sim pinpad --pty` as its own process (a pseudo-terminal made by socat),
 * the sandbox host on loopback with its own SQLite file, and the daemon (startDaemon) with
 * `pinpad.device.kind: serial` at the pty, its SQLite file and its debug log in a state directory,
 * driven through its HTTP API. One rig serves every case of a file.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { loadConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/core/log/index.js';
import { startDaemon, type Daemon } from '../../src/main.js';
import type { ApiEvent } from '../../src/api/events.js';
import { startHarness, type Harness, type HarnessOptions } from './sandbox.js';
import { omniOf, shippedConfig, writeConfig } from './config.js';
import { daemonHandle, openEvents, type DaemonHandle } from './daemon.js';
import { warmContract } from './contract.js';
import { startSim } from './sim-process.js';
import { FINAL_STATES as SALE_FINAL_STATES } from '../../src/engine/index.js';
import { sandboxSettings } from '../../src/sandbox/index.js';

/** Journal states after which nothing more happens to a sale: the sale machine's own list, not a copy. */
export const FINAL_STATES: readonly string[] = [...SALE_FINAL_STATES];

/** The virtual pinpad as its own process; `control` sends one JSON line and returns the answer (throws on a refusal). */
export interface SimProcess {
  /** Its TCP listener on loopback (beside the pty). */
  readonly tcp: number;
  control(cmd: Record<string, unknown>): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

async function startPtySim(ptyPath: string | undefined, extra: readonly string[] = []): Promise<SimProcess> {
  // typing "never": the product menu and the typed number wait for the keys a case scripts.
  // Without a pty the sim takes its TCP client directly (behind a pty, socat is its one client).
  const sim = await startSim([...(ptyPath ? ['--pty', ptyPath] : []), '--typing-ms', 'never', ...extra]);
  return {
    tcp: sim.tcp,
    control: async (cmd) => {
      const r = await sim.control(cmd);
      if (r.ok !== true) throw new Error(`sim control ${JSON.stringify(cmd)}: ${String(r.error)}`);
      return r;
    },
    stop: () => sim.stop(),
  };
}

export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** What a test reads of the e2e rig's daemon (test/helpers/daemon.ts's handle, less the parts it does not embed). */
type E2eReads = Pick<DaemonHandle, 'apiUrl' | 'journal' | 'outbox' | 'config' | 'pinpadLink' | 'busy'>;

export interface E2e extends E2eReads {
  dir: string;
  stateDir: string;
  logFile: string;
  /** The whole daemon, for a test that must reach inside it; prefer the handle's reads. */
  daemon: Daemon;
  sandbox: Harness;
  sim: SimProcess;
  /** Every event of `GET /v1/events` since the rig started, in order. */
  events: ApiEvent[];
  api(method: 'GET' | 'POST', p: string, body?: unknown, headers?: Record<string, string>): Promise<Answer>;
  /** Waits for an event matching `pred` (seen since `since`, an index into `events`). */
  waitEvent(pred: (e: ApiEvent) => boolean, since?: number, timeoutMs?: number): Promise<ApiEvent>;
  /** Waits until the payment's journal row is final; returns the payment as the API shows it. */
  waitFinal(id: number, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Waits until the payment's journal row is in `state`. */
  waitState(id: number, state: string, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export interface E2eOptions {
  sandbox?: HarnessOptions;
  /** Seconds the cash register has to decide (`payments.ecrDecisionSeconds`). */
  ecrDecisionSeconds?: number;
  /** The daemon's acquirer timeout, ms. */
  acquirerTimeoutMs?: number;
  /** More `omnipos sim pinpad` options (e.g. `--classic`). */
  simArgs?: readonly string[];
  /**
   * The virtual pinpad's processing times: `scaled` (the default) a Gertec PPC930's at
   * E2E_TIMING_SCALE, `real` a PPC930's (secure OPN 3 s, full GIX 8 s), `fast` none.
   * `OMNIPOS_E2E_TIMING=real` runs every rig at the real times.
   */
  pinpadTiming?: PinpadTiming;
  /**
   * The daemon's `pinpad.device` for the sim's TCP port (e.g. the BibComp bridge); the sim then runs
   * without a pty. Default: `serial` at the sim's pty.
   */
  pinpadDevice?: (sim: { tcp: number }) => Record<string, unknown>;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export type PinpadTiming = 'real' | 'scaled' | 'fast';
/**
 * The share of a PPC930's times the e2e rigs run at by default. At the real times each rig's start
 * waits ~3 s for the secure OPN and each sale ~6 s at the pinpad; a tenth keeps the order and the
 * proportions of the real answers (docs/pinpad.md "The virtual pinpad's timing in the tests").
 */
export const E2E_TIMING_SCALE = 0.1;

/** The `omnipos sim pinpad` options of a timing; `OMNIPOS_E2E_TIMING=real` makes every rig real. */
export function timingArgs(t: PinpadTiming = 'scaled', env = process.env): string[] {
  const timing = env.OMNIPOS_E2E_TIMING === 'real' && t === 'scaled' ? 'real' : t;
  if (timing === 'fast') return ['--timing', 'fast'];
  return ['--timing', 'ppc930', ...(timing === 'scaled' ? ['--timing-scale', String(E2E_TIMING_SCALE)] : [])];
}

export async function startE2e(o: E2eOptions = {}): Promise<E2e> {
  await warmContract();
  const dir = mkdtempSync(path.join(tmpdir(), 'omnipos-e2e-'));
  const stateDir = path.join(dir, 'state');
  const logFile = path.join(stateDir, 'logs', 'omnipos.log');
  const ptyPath = path.join(dir, 'pinpad');
  const sim = await startPtySim(o.pinpadDevice ? undefined : ptyPath, [
    ...timingArgs(o.pinpadTiming),
    ...(o.simArgs ?? []),
  ]);
  const sandbox = await startHarness({ withholdMs: 4000, ...o.sandbox });
  const base = shippedConfig();
  const config = {
    ...base,
    stateDir,
    acquirer: {
      kind: 'omni',
      omni: { ...omniOf(base), ...sandboxSettings(sandbox.running), timeoutMs: o.acquirerTimeoutMs ?? 1500 },
    },
    sandbox: { embedded: false },
    pinpad: { device: o.pinpadDevice ? o.pinpadDevice({ tcp: sim.tcp }) : { kind: 'serial', path: ptyPath } },
    // No close margin: with the default 30 min, a sale in the half hour before the host's midnight has its
    // decision due at once (src/engine/daily-close.ts) and these tests, run at any hour, are not about that.
    payments: { ecrDecisionSeconds: o.ecrDecisionSeconds ?? 3, closeMarginSeconds: 0 },
    api: { host: '127.0.0.1', port: 0 },
  };
  const configFile = writeConfig(path.join(dir, 'omnipos.json'), config, 2);
  const log = createLogger({
    level: 'debug',
    destination: pino.destination({ dest: logFile, mkdir: true, sync: true }),
  });
  const daemon = await startDaemon({ config: loadConfig({ path: configFile, env: {} }), log, env: {}, apiPort: 0 });
  const token = readFileSync(daemon.apiTokenFile, 'utf8').trim();
  const apiUrl = daemon.apiUrl!;
  const events: ApiEvent[] = [];
  const stream = await openEvents(apiUrl, token);
  let open = true;
  void (async () => {
    while (open) {
      const e = await stream.next(60_000).catch(() => undefined);
      if (e && 'data' in e) events.push(JSON.parse(e.data) as ApiEvent);
    }
  })();

  const api: E2e['api'] = async (method, p, body, headers = {}) => {
    const res = await fetch(`${apiUrl}${p}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  };
  const until = async <T>(what: string, timeoutMs: number, probe: () => T | undefined): Promise<T> => {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const v = probe();
      if (v !== undefined) return v;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await sleep(20);
    }
  };
  const own: Omit<E2e, keyof E2eReads> = {
    dir,
    stateDir,
    logFile,
    daemon,
    sandbox,
    sim,
    events,
    api,
    waitEvent: (pred, since = 0, timeoutMs = 10_000) =>
      until('an event', timeoutMs, () => events.slice(since).find(pred)),
    async waitFinal(id, timeoutMs = 20_000) {
      // Final in the journal, and the pinpad given back (the closing message and RMC done).
      await until(`payment ${id} to end`, timeoutMs, () =>
        FINAL_STATES.includes(daemon.journal.get(id)?.state ?? '') && !daemon.engine.busy ? true : undefined,
      );
      return (await api('GET', `/v1/payments/${id}`)).body;
    },
    async waitState(id, state, timeoutMs = 10_000) {
      await until(`payment ${id} in ${state}`, timeoutMs, () =>
        daemon.journal.get(id)?.state === state ? true : undefined,
      );
    },
    async stop() {
      open = false;
      stream.close();
      await daemon.stop();
      await sim.stop();
      await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  const handle = daemonHandle(daemon);
  const reads: E2eReads = {
    apiUrl,
    journal: handle.journal,
    outbox: handle.outbox,
    config: handle.config,
    pinpadLink: handle.pinpadLink,
    get busy() {
      return handle.busy;
    },
  };
  return Object.assign(reads, own);
}
