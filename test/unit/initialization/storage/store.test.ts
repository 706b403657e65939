import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isOmniposError } from '../../../../src/core/errors/index.js';
import {
  assertOperational,
  BinIndex,
  InitializationStore,
  isNewerVersion,
  parseInitialization,
  pinpadTableVersion,
} from '../../../../src/initialization/index.js';
import { MIGRATIONS, openDatabase } from '../../../../src/store/index.js';
import { TEST_CARDS } from '../../../../tables/test-cards.js';
import { useTempDirs } from '../../../helpers/temp-dir.js';
import { sandboxAnswer } from '../../../helpers/initialization-tables.js';

const tempDir = useTempDirs();
const clock = { now: () => new Date('2026-11-22T12:00:00Z') };

function open(file?: string) {
  const db = openDatabase({ file: file ?? path.join(tempDir(), 'omnipos.db'), migrations: MIGRATIONS });
  return { db, store: new InitializationStore(db, clock) };
}

function version(v: number) {
  return parseInitialization({ ...sandboxAnswer(), InitializationVersion: v });
}

describe('initialization storage (SQLite, versioned)', () => {
  it('stores the tables and reads back the same tables', () => {
    const { db, store } = open();
    expect(store.current()).toBeUndefined();
    const t = version(1763769600001);
    expect(store.install(t)).toEqual({ version: '1763769600001', installed: true, previous: undefined });
    expect(store.current()).toEqual(t);
    expect(store.install(t).installed).toBe(false);
    db.close();
  });

  it('a new version replaces the old one in one switch; the old one is removed', () => {
    const { db, store } = open();
    store.install(version(1763769600001));
    const r = store.install(version(1763769600002));
    expect(r).toEqual({ version: '1763769600002', installed: true, previous: '1763769600001' });
    expect(store.versions().map((v) => [v.version, v.state, v.current])).toEqual([['1763769600002', 'complete', true]]);
    db.close();
  });

  it('a write that fails half-way leaves the previous version in force; the next one completes', () => {
    const { db, store } = open();
    const big: Record<string, unknown> = { ...sandboxAnswer(), InitializationVersion: 1763769600002 };
    const first = (big.Bins as Record<string, unknown>[])[0]!;
    big.Bins = Array.from({ length: 500 }, (_, i) => ({
      ...first,
      InitialBin: String(60000000 + i),
      FinalBin: String(60000000 + i),
    }));
    store.install(version(1763769600001));
    expect(() =>
      store.install(parseInitialization(big), {
        chunkRows: 100,
        onChunk: (n) => {
          if (n === 300) throw new Error('power cut');
        },
      }),
    ).toThrow('power cut');
    expect(store.currentVersion()).toBe('1763769600001');
    expect(store.current()!.bins).toHaveLength(version(1).bins.length);
    expect(store.versions().find((v) => v.version === '1763769600002')?.state).toBe('writing');
    expect(store.install(parseInitialization(big)).installed).toBe(true);
    expect(store.current()!.bins).toHaveLength(500);
    expect(store.versions()).toHaveLength(1);
    db.close();
  });

  it('the SQL lookup and the in-memory index agree on every test card', () => {
    const { db, store } = open();
    const t = version(1763769600001);
    store.install(t);
    const index = BinIndex.build(t.bins);
    for (const c of TEST_CARDS) {
      const viaIndex = index.lookup(c.pan.slice(0, 8))?.rows ?? [];
      expect(viaIndex.length, c.name).toBeGreaterThan(0);
      expect(store.lookupSql(c.pan.slice(0, 8))).toEqual(viaIndex);
    }
    db.close();
  });

  it('remembers the pinpad table version for the version in force, forgotten at the next switch', () => {
    const { db, store } = open();
    store.install(version(1763769600001));
    store.setPinpadTableVersion(pinpadTableVersion('1763769600001'));
    expect(store.pinpadTableVersion()).toBe('3769600001');
    store.install(version(1763769600002));
    expect(store.pinpadTableVersion()).toBeUndefined();
    db.close();
  });
});

describe('versions and the lock', () => {
  it('the pinpad table version is the last 10 digits of the 13-digit InitializationVersion', () => {
    expect(pinpadTableVersion('1558708320029')).toBe('8708320029');
    expect(pinpadTableVersion(1763769600001)).toBe('3769600001');
    expect(pinpadTableVersion('42')).toBe('0000000042');
    expect(() => pinpadTableVersion('12345678901234')).toThrow(/up to 13 digits/);
  });

  it('a sale answer with a newer InitializationVersion asks for initialization; an equal or older one does not', () => {
    expect(isNewerVersion(1763769600002, '1763769600001')).toBe(true);
    expect(isNewerVersion('1763769600001', '1763769600001')).toBe(false);
    expect(isNewerVersion(1763769600000, '1763769600001')).toBe(false);
    expect(isNewerVersion(undefined, '1763769600001')).toBe(false);
    expect(isNewerVersion(5, undefined)).toBe(true);
  });

  it('no sale until initialized, nor while the acquirer locks everything but initialization', () => {
    const code = (f: () => void) => {
      try {
        f();
      } catch (e) {
        return isOmniposError(e) ? e.code : 'other';
      }
      return 'allowed';
    };
    expect(code(() => assertOperational(undefined))).toBe('INIT_NOT_INITIALIZED');
    const locked = sandboxAnswer();
    locked.Acquirer = { ...(locked.Acquirer as object), LockAppFunctionsExceptInitialization: true };
    expect(code(() => assertOperational(parseInitialization(locked)))).toBe('INIT_NOT_INITIALIZED');
    expect(code(() => assertOperational(parseInitialization(sandboxAnswer())))).toBe('allowed');
  });
});

describe('two initializations at once', () => {
  it('the one overtaken fails with STORE_CONFLICT; the other is in force, whole', () => {
    const file = path.join(tempDir(), 'omnipos.db');
    const a = open(file);
    const b = open(file);
    a.store.install(version(1763769600001));
    const big: Record<string, unknown> = { ...sandboxAnswer(), InitializationVersion: 1763769600002 };
    const first = (big.Bins as Record<string, unknown>[])[0]!;
    big.Bins = Array.from({ length: 300 }, (_, i) => ({
      ...first,
      InitialBin: String(60000000 + i),
      FinalBin: String(60000000 + i),
    }));
    const tables = parseInitialization(big);
    let interleaved = false;
    expect(() =>
      a.store.install(tables, {
        chunkRows: 100,
        onChunk: () => {
          if (interleaved) return;
          interleaved = true;
          expect(b.store.install(tables).installed).toBe(true);
        },
      }),
    ).toThrow(expect.objectContaining({ code: 'STORE_CONFLICT' }));
    expect(a.store.currentVersion()).toBe('1763769600002');
    expect(a.store.current()!.bins).toHaveLength(300);
    a.db.close();
    b.db.close();
  });
});
