// What the card-void tests share (card-void.test.ts, card-void-refusals.test.ts, card-void-recovery.test.ts):
// the virtual pinpad over a pty behind a spy that records what the void's card port sent and every
// ciphertext it was handed, the strict sandbox over loopback, and terminals whose state directory is
// scanned for card data when they close. The state is exported as live bindings, set by the hooks.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { card, type CommandSpec, type RunOptions } from '../../../drivers/pinpad/index.js';
import type { CardPinpad } from '../../../src/adapters/pinpad-card.js';
import { decodeTlv } from '../../../src/emv/index.js';
import { parseInitialization, TableSet } from '../../../src/initialization/index.js';
import { TEST_CARDS } from '../../../tables/test-cards.js';
import { captureLogger } from '../../helpers/capture-log.js';
import { clearCardData, scanForCardData } from '../../helpers/scan-card-data.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { startHarness, type Harness } from '../../helpers/sandbox.js';
import { startRig, type Rig } from '../../helpers/pinpad-rig.js';
import { IDENTITY, SUPERVISOR_TOKEN, voidTerminal, type Settle, type Terminal } from './terminal.js';

export let tempDir: () => string;
export const { log, output } = captureLogger('debug');
export let h: Harness;
export let rig: Rig;
export let tables: TableSet;
/** What the void's card port sent the pinpad: command id and transaction type, and GOX's 9C. */
export const seen: { id: string; transactionType?: string; tag9C?: string }[] = [];
export let spy: CardPinpad;
/** Every encrypted track, PAN and PIN block the pinpad handed over: none may be stored or logged either. */
export const ciphertexts = new Set<string>();

/** Files under `dir` holding one of the ciphertexts (hex, either case). */
export function scanForCiphertexts(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = path.join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else {
        const bytes = readFileSync(p);
        for (const c of ciphertexts)
          if (bytes.includes(Buffer.from(c)) || bytes.includes(Buffer.from(c.toLowerCase())))
            found.push(`${name}: ${c.slice(0, 8)}…`);
      }
    }
  };
  walk(dir);
  return found;
}

/** Card data found in a terminal's state directory when it closed (temporary folders go after each test). */
export const leaks: string[] = [];
export let scanned = 0;

/**
 * The card-void rig of the card-void*.test.ts files, started and stopped by their hooks: a temporary folder per
 * test, the virtual pinpad over a pty with a spy on its commands, the strict sandbox over loopback.
 */
export function useCardVoidRig(): void {
  tempDir = useTempDirs();
  beforeAll(async () => {
    rig = await startRig();
    h = await startHarness({ clientTimeoutMs: 600, withholdMs: 1200, outcomeAttempts: 1 }); // first-N: a void's retry gets past a cents outcome
    tables = new TableSet(
      parseInitialization(await h.acquirer.omni.initialization(IDENTITY.subordinatedMerchantId, IDENTITY.terminalId)),
    );
    spy = {
      async run<Req, Res>(spec: CommandSpec<Req, Res>, req: Req, opts?: RunOptions): Promise<Res> {
        const res = await rig.pinpad.run(spec, req, opts);
        const id = (spec as unknown as { id?: string }).id ?? '?';
        const r = req as { transactionType?: string };
        const emv = (res as { emvData?: Uint8Array }).emvData;
        const t9c = spec === (card.GOX as unknown) && emv ? decodeTlv(emv).find((x) => x.tag === '9C') : undefined;
        seen.push({
          id,
          ...(r?.transactionType ? { transactionType: r.transactionType } : {}),
          ...(t9c ? { tag9C: Buffer.from(t9c.value).toString('hex') } : {}),
        });
        // the ciphertexts the terminal holds in memory only: the encrypted track 2 and PAN, the PIN block
        const out = res as { pinBlock?: { block: string }; track2?: { data: string }; pan?: { data: string } };
        for (const c of [out.pinBlock?.block, out.track2?.data, out.pan?.data]) if (c) ciphertexts.add(c.toUpperCase());
        return res;
      },
    };
  }, 60_000);
  afterAll(async () => {
    await rig?.stop();
    await h?.close();
  });
}

export function terminal(extra: Partial<Parameters<typeof voidTerminal>[0]> = {}): Terminal {
  return scannedOnClose(voidTerminal({ dir: tempDir(), h, pinpad: spy, tables, log, ...extra }));
}

/** Closes the database, then scans the state directory (SQLite file, WAL) for clear card data. */
export function scannedOnClose(t: Terminal): Terminal {
  const close = t.close;
  const dir = t.db.name.replace(/\/omnipos\.db$/, '');
  return {
    ...t,
    close: () => {
      close();
      leaks.push(...scanForCardData(dir), ...scanForCiphertexts(dir));
      scanned++;
    },
  };
}

export const chip0 = (): void => rig.choose({ lastDigit: 0, via: 'chip', pin: 'right' });
export const byToken = { supervisor: { token: SUPERVISOR_TOKEN } };

export async function ledgerSale(t: Terminal, saleId: number) {
  const mo = t.journal.get(saleId)!.merchantOrderId;
  return (await h.ledger()).sales.find((s) => s.merchantOrderId === mo)!;
}

export async function voidAndSettle(
  t: Terminal,
  saleId: number,
  o: { amount?: number; supervisor?: { token?: string; password?: string }; settle?: Settle } = {},
) {
  const { entry, done } = await t.voids.start(saleId, {
    supervisor: o.supervisor ?? byToken.supervisor,
    ...(o.amount !== undefined ? { amount: o.amount } : {}),
  });
  await done;
  await t.settle(o.settle);
  return t.journal.get(entry.id)!;
}

/**
 * What every card-void file ends with: no PAN, track or PIN in the SQLite files (scanned as each
 * terminal closed) or in the logs, nor a ciphertext the pinpad produced in the logs; each file gives
 * the floors its own scenarios reach (terminals scanned, ciphertexts seen), so an empty scan never passes.
 */
export function expectNoCardData(floors: { terminals: number; ciphertextsOver: number }): void {
  expect(scanned).toBeGreaterThanOrEqual(floors.terminals);
  expect(leaks).toEqual([]);
  const logs = output();
  expect(logs.length).toBeGreaterThan(0);
  for (const secret of clearCardData()) expect(logs.includes(secret)).toBe(false);
  for (const c of TEST_CARDS) expect(logs).not.toMatch(new RegExp(`"pin(Block)?":"?${c.pin}`));
  expect(ciphertexts.size).toBeGreaterThan(floors.ciphertextsOver);
  for (const c of ciphertexts)
    expect(logs.toUpperCase().includes(c), `ciphertext ${c.slice(0, 8)}… in the logs`).toBe(false);
}
