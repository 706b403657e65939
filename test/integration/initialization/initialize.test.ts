import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/core/log/index.js';
import {
  decodeRecords,
  initializationDue,
  initialize,
  InitializationStore,
  type PinpadLoadPlan,
  type PinpadTables,
} from '../../../src/initialization/index.js';
import { SANDBOX_MERCHANT } from '../../../tables/sandbox-merchant.js';
import { useTempStores } from '../../helpers/store.js';
import { startHarness, type Harness } from '../../helpers/sandbox.js';

const tempStore = useTempStores();
const log = createLogger({ level: 'silent' });
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const source = () => ({
  download: () =>
    h.acquirer.omni.initialization(
      SANDBOX_MERCHANT.merchant.subordinatedMerchantId,
      SANDBOX_MERCHANT.terminal.terminalId,
    ),
});

/**
 * The pinpad's side of TLI/TLR/TLE (ABECS §3.5): records held aside until TLE, which replaces the
 * tables and the version; `failAfter` TLR commands it stops answering (unplugged mid-load).
 */
class TablePinpad implements PinpadTables {
  version: string | undefined;
  records: string[] = [];
  loads = 0;
  constructor(public failAfter = Infinity) {}
  tableVersion(): Promise<string | undefined> {
    return Promise.resolve(this.version);
  }
  load(plan: PinpadLoadPlan): Promise<void> {
    this.loads++;
    const pending: string[] = [];
    for (const [i, block] of plan.tlr.entries()) {
      if (i >= this.failAfter) return Promise.reject(new Error('pinpad unplugged during TLR'));
      pending.push(...decodeRecords(block.slice(2), 'TLR').map((r) => r.raw));
    }
    this.records = pending;
    this.version = plan.tableVersion;
    return Promise.resolve();
  }
}

function openStore() {
  const db = tempStore();
  return { db, store: new InitializationStore(db, { now: () => new Date() }) };
}

describe('initialize: download, validate, store, load the pinpad', () => {
  it('from the sandbox over loopback into SQLite, with each step reported; no pinpad yet', async () => {
    const { db, store } = openStore();
    const steps: string[] = [];
    const r = await initialize({ source: source(), store, log, onStep: (s) => steps.push(s) });
    expect(r).toMatchObject({ installed: true, pinpad: 'no-pinpad' });
    expect(store.currentVersion()).toBe(r.version);
    expect([...new Set(steps)]).toEqual(['download', 'validate', 'store']);
    db.close();
  });

  it('loads the pinpad once; a second run finds both up to date', async () => {
    const { db, store } = openStore();
    const pinpad = new TablePinpad();
    const first = await initialize({ source: source(), store, pinpad, log });
    expect(first).toMatchObject({ installed: true, pinpad: 'loaded' });
    expect(pinpad.version).toBe(first.version.slice(-10));
    expect(pinpad.records).toEqual([...store.current()!.aidRecords, ...store.current()!.keyRecords].map((r) => r.raw));
    expect(store.pinpadTableVersion()).toBe(pinpad.version);
    const again = await initialize({ source: source(), store, pinpad, log });
    expect(again).toMatchObject({ installed: false, pinpad: 'up-to-date' });
    expect(pinpad.loads).toBe(1);
    db.close();
  });

  it('a pinpad load interrupted mid-way leaves the tables in force and the pinpad on its old tables; the next run loads it', async () => {
    const { db, store } = openStore();
    const pinpad = new TablePinpad(2);
    await expect(initialize({ source: source(), store, pinpad, log })).rejects.toThrow('unplugged');
    expect(store.currentVersion()).toBeDefined();
    expect(store.pinpadTableVersion()).toBeUndefined();
    expect(pinpad.version).toBeUndefined();
    pinpad.failAfter = Infinity;
    expect(await initialize({ source: source(), store, pinpad, log })).toMatchObject({
      installed: false,
      pinpad: 'loaded',
    });
    expect(store.pinpadTableVersion()).toBe(pinpad.version);
    db.close();
  });
});

describe('when to initialize again', () => {
  const now = new Date('2026-11-22T12:00:00Z');
  it('when never initialized, when a sale answered a newer version, or when the schedule says so', () => {
    expect(initializationDue({ newerVersionSeen: false, lastSwitchedAt: undefined, now, everyHours: 24 })).toBe(true);
    expect(initializationDue({ newerVersionSeen: true, lastSwitchedAt: now, now, everyHours: 24 })).toBe(true);
    expect(
      initializationDue({
        newerVersionSeen: false,
        lastSwitchedAt: new Date('2026-11-21T12:00:01Z'),
        now,
        everyHours: 24,
      }),
    ).toBe(false);
    expect(
      initializationDue({
        newerVersionSeen: false,
        lastSwitchedAt: new Date('2026-11-21T12:00:00Z'),
        now,
        everyHours: 24,
      }),
    ).toBe(true);
    expect(
      initializationDue({
        newerVersionSeen: false,
        lastSwitchedAt: new Date('2020-01-01T00:00:00Z'),
        now,
        everyHours: 0,
      }),
    ).toBe(false);
  });
});
