import type { Logger } from '../core/index.js';
import { parseInitialization } from './schema/parse.js';
import { planPinpadLoad, type PinpadLoadPlan } from './pinpad-load.js';
import type { InitializationStore } from './storage/store.js';

/** Where the tables come from: the omni client's `GET /initialization/...` or `POST /initialization` (with the technical parameters). */
export interface TablesSource {
  download(): Promise<unknown>;
}

/**
 * The pinpad's table commands, implemented on the pinpad driver (GIX for the version a network's
 * tables carry; TLI, TLR…, TLE to replace them). The pinpad keeps its previous tables until TLE.
 */
export interface PinpadTables {
  tableVersion(acquirerIndex: string): Promise<string | undefined>;
  load(plan: PinpadLoadPlan): Promise<void>;
}

export type InitStep = 'download' | 'validate' | 'store' | 'pinpad';

export interface InitializeDeps {
  source: TablesSource;
  store: InitializationStore;
  /** Absent when no pinpad is attached: the tables are stored, the pinpad load waits for the next run. */
  pinpad?: PinpadTables;
  log: Logger;
  /** Progress: each step as it starts, and the BIN rows written while storing. */
  onStep?: (step: InitStep, detail?: { done: number; total: number }) => void;
}

export interface InitializeResult {
  version: string;
  /** False when that version was already in force. */
  installed: boolean;
  pinpad: 'loaded' | 'up-to-date' | 'no-pinpad' | 'no-records';
}

/**
 * A terminal initialization: download the tables, validate them, store them beside the version in
 * force and switch, then load the pinpad's AID and CA key tables unless it already holds that
 * version. Safe to interrupt anywhere and to run again: an interrupted store leaves the previous
 * version in force; an interrupted pinpad load leaves the pinpad on its previous tables (TLE was
 * not sent) and the next run, finding the version stored, goes straight to the pinpad.
 */
export async function initialize(deps: InitializeDeps): Promise<InitializeResult> {
  const { store, log } = deps;
  deps.onStep?.('download');
  const answer = await deps.source.download();
  deps.onStep?.('validate');
  const tables = parseInitialization(answer);
  deps.onStep?.('store', { done: 0, total: tables.bins.length });
  const stored = store.install(tables, { onChunk: (done, total) => deps.onStep?.('store', { done, total }) });
  log.info(
    { version: tables.version, installed: stored.installed, previous: stored.previous, bins: tables.bins.length },
    'initialization tables in force',
  );
  if (!deps.pinpad) return { version: tables.version, installed: stored.installed, pinpad: 'no-pinpad' };
  deps.onStep?.('pinpad');
  const probe = planPinpadLoad(tables);
  if (probe.tlr.length === 0) return { version: tables.version, installed: stored.installed, pinpad: 'no-records' };
  const plan = planPinpadLoad(tables, await deps.pinpad.tableVersion(probe.acquirerIndex));
  if (!plan.skip) {
    await deps.pinpad.load(plan);
    log.info(
      { tableVersion: plan.tableVersion, acquirerIndex: plan.acquirerIndex, commands: plan.tlr.length },
      'pinpad tables loaded',
    );
  }
  store.setPinpadTableVersion(plan.tableVersion);
  return { version: tables.version, installed: stored.installed, pinpad: plan.skip ? 'up-to-date' : 'loaded' };
}

/**
 * Whether to initialize again: a sale's answer carried a newer `InitializationVersion`, or the
 * last initialization is older than `everyHours` (the schedule; 0 = never by age).
 */
export function initializationDue(o: {
  newerVersionSeen: boolean;
  lastSwitchedAt: Date | undefined;
  now: Date;
  everyHours: number;
}): boolean {
  if (o.newerVersionSeen || !o.lastSwitchedAt) return true;
  return o.everyHours > 0 && o.now.getTime() - o.lastSwitchedAt.getTime() >= o.everyHours * 3_600_000;
}
