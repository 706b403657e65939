import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { loadConfig } from '../../src/config/index.js';
import type { Clock } from '../../src/core/clock.js';
import { createLogger, type Logger } from '../../src/core/log/index.js';
import { startDaemon, type Daemon, type DaemonDeps } from '../../src/main.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import type { SimEngine } from '../../src/sim/pinpad/engine.js';
import type { VirtualPinpad } from '../../src/sim/pinpad/index.js';
import type { VirtualPrinter } from '../../src/sim/printer/index.js';
import type { Journal, Outbox } from '../../src/store/index.js';
import type { SavedCardVault } from '../../src/engine/index.js';
import type { SecurePinpad } from '../../src/adapters/index.js';
import { warmContract } from './contract.js';

export interface TestDaemonOptions {
  /** Configuration overrides as the daemon reads them from its environment (`OMNIPOS_…`). */
  env?: Record<string, string>;
  /** The state directory; default a new temporary one, removed by `stop()` (a given one is left in place). */
  stateDir?: string;
  /** The temporary state directory's name prefix. */
  prefix?: string;
  clock?: Clock;
  /** Default: silent. */
  log?: Logger;
  /** Further start options (acquirer interceptors, probe timings…). */
  deps?: Partial<Omit<DaemonDeps, 'config' | 'log' | 'env' | 'sandboxPort' | 'apiPort' | 'clock'>>;
}

/**
 * What a test reads of a running daemon, and no more: the API's address, the journal and the outbox read
 * only, the configuration's values, the pinpad's link, and the counterparts the default configuration
 * embeds (the sandbox host, the virtual pinpad's engine, the virtual printer). The daemon's own fields
 * (src/main/daemon.ts) stay the composition root's; a test that must reach an engine or the database still
 * has `daemon`. The e2e rig (test/helpers/e2e.ts) offers the part of it that a daemon without embedded
 * counterparts has.
 */
export interface DaemonHandle {
  /** The local API's address (`http://127.0.0.1:…`). */
  readonly apiUrl: string;
  /** The journal, read only. */
  readonly journal: Pick<Journal, 'get' | 'list' | 'transitions' | 'byMerchantOrderId'>;
  /** The outbox, read only: a payment's tasks, the depth by state. */
  readonly outbox: Pick<Outbox, 'byJournal' | 'depth'>;
  /** The configuration's values. */
  readonly config: Daemon['config']['values'];
  /** The embedded sandbox host and its controls (faults) (throws when the configuration has none). */
  readonly sandbox: Pick<RunningSandbox, 'url' | 'urls' | 'close' | 'sandbox'>;
  /** The virtual pinpad's engine: the customer's keys, cards and faults (throws without a virtual pinpad). */
  readonly pinpad: SimEngine;
  /** The virtual pinpad's cable: pulled and put back (throws without a virtual pinpad). */
  readonly pinpadCable: Pick<VirtualPinpad, 'unplug' | 'replug'>;
  /** The pinpad's link as the driver holds it, read only: its status (`connected`, …) and the secure session's. */
  readonly pinpadLink: Pick<SecurePinpad, 'status' | 'secure'>;
  /** Settles once the pinpad's first secure session opened or its first attempt failed. */
  readonly pinpadOpened: Promise<void>;
  /** The virtual printer: its paper, receipts and faults (throws without a virtual printer). */
  readonly printer: VirtualPrinter;
  /** The saved cards' vault, read only: the token a card's id holds, the list (throws without one). */
  readonly savedCards: Pick<SavedCardVault, 'reveal' | 'list'>;
  /** A card sale is in progress (the card sale engine holds the terminal). */
  readonly busy: boolean;
  /** Runs the alarm monitor's check now (as its period would). */
  checkAlarms(): void;
}

/** The part of the daemon `what` names, or a clear error when this configuration has none. */
function present<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`this test daemon has no ${what} (see its configuration)`);
  return value;
}

/** The narrow handle on a running daemon: each part read when asked (a part the configuration lacks throws then). */
export function daemonHandle(daemon: Daemon): DaemonHandle {
  return {
    get apiUrl() {
      return present(daemon.apiUrl, 'local API');
    },
    journal: daemon.journal,
    outbox: daemon.outbox,
    config: daemon.config.values,
    get sandbox() {
      return present(daemon.sandbox, 'embedded sandbox host');
    },
    get pinpad() {
      return present(daemon.virtualPinpad, 'virtual pinpad').engine;
    },
    get pinpadCable() {
      return present(daemon.virtualPinpad, 'virtual pinpad');
    },
    pinpadLink: daemon.pinpad.pinpad,
    pinpadOpened: daemon.pinpadOpened,
    get printer() {
      return present(daemon.virtualPrinter, 'virtual printer');
    },
    get savedCards() {
      return present(daemon.cnpEngine?.savedCards, 'saved cards (cardNotPresent)');
    },
    get busy() {
      return daemon.engine.busy;
    },
    checkAlarms: () => daemon.operations.alarms.check(),
  };
}

export interface TestDaemon extends DaemonHandle {
  /** The whole daemon, for the tests that must reach inside it (an engine, the database); prefer the handle. */
  daemon: Daemon;
  /** The API token (`Bearer …`). */
  token: string;
  stateDir: string;
  /** One request to the daemon's API with its token; the answer's status and its JSON body ({} when empty). */
  call(method: 'GET' | 'POST', p: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }>;
  /** Stops the daemon and keeps its state directory (to read its files after); `stop()` still removes it. */
  stopDaemon(): Promise<void>;
  /** Stops the daemon, then removes the state directory the helper made. */
  stop(): Promise<void>;
}

/**
 * A real daemon on the default configuration (embedded sandbox host, virtual pinpad and printer) on free
 * loopback ports (sandbox and API on port 0), its state in a temporary directory; wallet QR codes polled every
 * 100 ms.
 */
export async function startTestDaemon(o: TestDaemonOptions = {}): Promise<TestDaemon> {
  await warmContract();
  const stateDir = o.stateDir ?? mkdtempSync(path.join(tmpdir(), o.prefix ?? 'omnipos-daemon-'));
  // No close margin unless a test asks: with the default 30 min, a sale in the half hour before the host's
  // midnight has its decision due at once (src/engine/daily-close.ts), and these tests run at any hour.
  const config = loadConfig({
    env: {
      OMNIPOS_STATE_DIR: stateDir,
      OMNIPOS_QR__POLL_MS: '100',
      OMNIPOS_PAYMENTS__CLOSE_MARGIN_SECONDS: '0',
      ...o.env,
    },
  });
  const daemon = await startDaemon({
    config,
    log: o.log ?? createLogger({ level: 'silent' }),
    env: {},
    sandboxPort: 0,
    apiPort: 0,
    ...(o.clock ? { clock: o.clock } : {}),
    ...o.deps,
  });
  const token = readFileSync(daemon.apiTokenFile, 'utf8').trim();
  const own: Omit<TestDaemon, keyof DaemonHandle> = {
    daemon,
    token,
    stateDir,
    call: async (method, p, body) => {
      const res = await request(`${daemon.apiUrl}${p}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      const text = await res.body.text();
      return { status: res.statusCode, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
    },
    stopDaemon: () => daemon.stop(),
    stop: async () => {
      await daemon.stop();
      if (!o.stateDir) rmSync(stateDir, { recursive: true, force: true });
    },
  };
  return Object.assign(daemonHandle(daemon), own);
}

/** One parsed server-sent event, or a comment line. */
export type Sse = { comment: string } | { id?: string; event?: string; data: string };

/**
 * Opens `GET /v1/events` with fetch (undici) and parses the stream as it arrives, the way a cash
 * register would: blocks separated by a blank line, `:` comments, `id:`, `event:`, `data:` lines.
 * `lastEventId`: sent as `Last-Event-ID`, as a reconnecting client does.
 */
export async function openEvents(
  url: string,
  token: string,
  lastEventId?: string,
): Promise<{ status: number; next(timeoutMs?: number): Promise<Sse>; close(): void; headers: Headers }> {
  const ac = new AbortController();
  const res = await fetch(`${url}/v1/events`, {
    headers: {
      authorization: `Bearer ${token}`,
      ...(lastEventId !== undefined ? { 'last-event-id': lastEventId } : {}),
    },
    signal: ac.signal,
  });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const queue: Sse[] = [];
  // One read at a time: a read left pending by a timeout is the next one awaited.
  let pending: ReturnType<typeof reader.read> | undefined;
  const parse = (): void => {
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      if (block.startsWith(':')) {
        queue.push({ comment: block.slice(1).trim() });
        continue;
      }
      const ev: { id?: string; event?: string; data: string } = { data: '' };
      for (const line of block.split('\n')) {
        const i = line.indexOf(':');
        const field = line.slice(0, i);
        const value = line.slice(i + 1).replace(/^ /, '');
        if (field === 'id') ev.id = value;
        else if (field === 'event') ev.event = value;
        else if (field === 'data') ev.data += value;
      }
      queue.push(ev);
    }
  };
  return {
    status: res.status,
    headers: res.headers,
    async next(timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (queue.length === 0) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error('no event in time');
        let timer: NodeJS.Timeout | undefined;
        pending ??= reader.read();
        const chunk = await Promise.race([
          pending,
          new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), left))),
        ]);
        clearTimeout(timer);
        if (chunk === 'timeout') continue;
        pending = undefined;
        if (chunk.done) throw new Error('the stream ended');
        buffer += decoder.decode(chunk.value, { stream: true });
        parse();
      }
      return queue.shift() as Sse;
    },
    close: () => ac.abort(),
  };
}

/**
 * Opens `GET /v1/events` from this process (one client address) until the daemon refuses one (its
 * cap per client, src/api/stream-caps.ts) or `most` are open: their statuses, and the close of all.
 */
export async function holdStreams(
  url: string,
  token: string,
  most = 9,
): Promise<{ statuses: number[]; close(): void }> {
  const held: Awaited<ReturnType<typeof openEvents>>[] = [];
  while (held.length < most && held.at(-1)?.status !== 429) held.push(await openEvents(url, token));
  return { statuses: held.map((s) => s.status), close: () => held.forEach((s) => s.close()) };
}
