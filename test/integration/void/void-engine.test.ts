import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, type CommandSpec, type RunOptions } from '../../../drivers/pinpad/index.js';
import type { CardPinpad } from '../../../src/adapters/pinpad-card.js';
import { OmniVoidAdapter } from '../../../src/acquirer/omni/voids.js';
import { decodeTlv } from '../../../src/emv/index.js';
import type { VoidHostPort } from '../../../src/engine/void/ports.js';
import type { CardPort } from '../../../src/engine/ports.js';
import { parseInitialization, TableSet } from '../../../src/initialization/index.js';
import { TEST_CARDS } from '../../../tables/test-cards.js';
import { captureLogger } from '../../helpers/capture-log.js';
import { scanForCardData, clearCardData } from '../../helpers/scan-card-data.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { startHarness, type Harness } from '../../helpers/sandbox.js';
import { HAS_SOCAT } from '../../helpers/socat.js';
import { startRig, type Rig } from '../../helpers/pinpad-rig.js';
import { IDENTITY, SUPERVISOR_PASSWORD, SUPERVISOR_TOKEN, voidTerminal, type Terminal } from './terminal.js';

const tempDir = useTempDirs();
const { log, output } = captureLogger('debug');
let h: Harness;
let rig: Rig;
let tables: TableSet;
/** What the void's card port sent the pinpad: command id and transaction type, and GOX's 9C. */
const seen: { id: string; transactionType?: string; tag9C?: string }[] = [];
let spy: CardPinpad;
/** Every encrypted track, PAN and PIN block the pinpad handed over: none may be stored or logged either. */
const ciphertexts = new Set<string>();

/** Files under `dir` holding one of the ciphertexts (hex, either case). */
function scanForCiphertexts(dir: string): string[] {
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
const leaks: string[] = [];
let scanned = 0;

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

function terminal(extra: Partial<Parameters<typeof voidTerminal>[0]> = {}): Terminal {
  return scannedOnClose(voidTerminal({ dir: tempDir(), h, pinpad: spy, tables, log, ...extra }));
}

/** Closes the database, then scans the state directory (SQLite file, WAL) for clear card data. */
function scannedOnClose(t: Terminal): Terminal {
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

const chip0 = (): void => rig.choose({ lastDigit: 0, via: 'chip', pin: 'right' });
const byToken = { supervisor: { token: SUPERVISOR_TOKEN } };

async function ledgerSale(t: Terminal, saleId: number) {
  const mo = t.journal.get(saleId)!.merchantOrderId;
  return (await h.ledger()).sales.find((s) => s.merchantOrderId === mo)!;
}

async function voidAndSettle(
  t: Terminal,
  saleId: number,
  o: { amount?: number; supervisor?: { token?: string; password?: string } } = {},
) {
  const { entry, done } = await t.voids.start(saleId, {
    supervisor: o.supervisor ?? byToken.supervisor,
    ...(o.amount !== undefined ? { amount: o.amount } : {}),
  });
  await done;
  await t.settle();
  return t.journal.get(entry.id)!;
}

describe.skipIf(!HAS_SOCAT)(
  'card voids end to end: the virtual pinpad over a pty, the strict sandbox over loopback, SQLite on a file',
  () => {
    it('a full void with the same card (chip, PIN): GCX and GOX with transaction type refund, confirmed through the outbox, nothing left charged', async () => {
      const t = terminal();
      chip0();
      const saleId = await t.sell(1000);
      seen.length = 0;
      const v = await voidAndSettle(t, saleId, { supervisor: { password: SUPERVISOR_PASSWORD } });
      expect(v.state).toBe('confirmed');
      expect(t.journal.transitions(v.id).map((x) => x.to)).toEqual([
        'started',
        'card-read',
        'voiding',
        'finishing-chip',
        'confirming',
        'confirmed',
      ]);
      expect(v.data).toMatchObject({
        amount: 1000,
        authorizedBy: 'supervisor-password',
        sale: { id: saleId },
        card: { maskedPan: '476173******0060', panSequenceNumber: '01' },
      });
      expect(v.merchantOrderId).toMatch(/^\d{15}$/);
      expect(v.merchantOrderId).not.toBe(t.journal.get(saleId)!.merchantOrderId);
      expect(seen.filter((s) => s.id === 'GCX' || s.id === 'GOX')).toEqual([
        { id: 'GCX', transactionType: 'refund' },
        { id: 'GOX', transactionType: 'refund', tag9C: '20' },
      ]);
      expect(seen.map((s) => s.id)).toContain('FCX');
      expect(rig.sim.engine.state.display).toEqual(['CANCELAMENTO', 'APROVADO']);
      expect(await ledgerSale(t, saleId)).toMatchObject({ voided: 1000, charged: 0 });
      expect(t.voids.remaining(saleId)).toMatchObject({ voided: 1000, remaining: 0 });
      await expect(t.voids.start(saleId, byToken)).rejects.toMatchObject({ code: 'VOID_OVER_LIMIT' });
      t.close();
    }, 60_000);

    it('a void with another card is refused before anything is sent; the sale stays charged', async () => {
      const t = terminal();
      chip0();
      const saleId = await t.sell(1000);
      const mastercard = TEST_CARDS.find((c) => c.name.startsWith('mastercard credit, chip'))!;
      rig.choose({ pan: mastercard.pan, via: 'chip', pin: 'right' });
      const before = (await h.ledger()).entries.length;
      const v = await voidAndSettle(t, saleId);
      expect(v.state).toBe('refused');
      expect(String(v.data.reason)).toContain("not the sale's card: masked PAN differs");
      expect(t.journal.transitions(v.id).map((x) => x.to)).toEqual(['started', 'refused']);
      expect(rig.sim.engine.state.display).toEqual(['CARTAO DIFERENTE', 'DA VENDA']);
      expect((await h.ledger()).entries.length).toBe(before);
      expect(t.outbox.depth().pending).toBe(0);
      expect(await ledgerSale(t, saleId)).toMatchObject({ voided: 0, charged: 1000 });
      // the same card of the same number but another expiry or sequence number is not the sale's either
      expect(t.voids.remaining(saleId)).toMatchObject({ remaining: 1000 });
      t.close();
    }, 60_000);

    it("a void past the issuer's limit (VISA: 365 days) or above what remains is refused before a journal row opens", async () => {
      const later = { now: () => new Date(Date.now() + 366 * 86_400_000) };
      const t = terminal({ voidClock: later });
      chip0();
      const saleId = await t.sell(1000);
      const rows = t.journal.list().length;
      await expect(t.voids.start(saleId, byToken)).rejects.toMatchObject({
        code: 'VOID_TOO_LATE',
        message: expect.stringContaining('VISA allows voids up to 365 days'),
      });
      await expect(t.voids.start(saleId, { ...byToken, amount: 1001 })).rejects.toMatchObject({
        code: 'VOID_OVER_LIMIT',
      });
      expect(t.journal.list().length).toBe(rows);
      expect(await ledgerSale(t, saleId)).toMatchObject({ voided: 0, charged: 1000 });
      t.close();
    }, 60_000);

    it('a void without a supervisor is refused: no credential, the cash register’s token, a wrong password', async () => {
      const t = terminal();
      chip0();
      const saleId = await t.sell(1000);
      await expect(t.voids.start(saleId, { supervisor: {} })).rejects.toMatchObject({ code: 'SUPERVISOR_REQUIRED' });
      await expect(
        t.voids.start(saleId, { supervisor: { token: 'the-cash-register-token-0123456789abcdef' } }),
      ).rejects.toMatchObject({ code: 'SUPERVISOR_REQUIRED' });
      await expect(t.voids.start(saleId, { supervisor: { password: '1357' } })).rejects.toMatchObject({
        code: 'SUPERVISOR_REQUIRED',
      });
      expect(t.journal.list().filter((e) => e.kind === 'void')).toEqual([]);
      t.close();
    }, 60_000);

    it('partial voids: 400 then the 600 left; more than what remains is refused; the host agrees on every cent', async () => {
      const t = terminal();
      chip0();
      const saleId = await t.sell(1000);
      expect((await voidAndSettle(t, saleId, { amount: 400 })).state).toBe('confirmed');
      expect(t.voids.remaining(saleId)).toEqual({ saleId, amount: 1000, voided: 400, remaining: 600 });
      expect(await ledgerSale(t, saleId)).toMatchObject({ voided: 400, charged: 600 });
      await expect(t.voids.start(saleId, { ...byToken, amount: 601 })).rejects.toMatchObject({
        code: 'VOID_OVER_LIMIT',
        context: { remaining: 600 },
      });
      const rest = await voidAndSettle(t, saleId);
      expect(rest).toMatchObject({ state: 'confirmed', amount: 600 });
      expect(await ledgerSale(t, saleId)).toMatchObject({ voided: 1000, charged: 0 });
      t.close();
    }, 60_000);

    it("the sandbox's void outcomes by the sale's cents, 40–59: each void ends as the host says and the ledger agrees", async () => {
      const t = terminal();
      const cases: [number, string, string[]][] = [
        [1040, 'confirmed', ['confirming', 'confirmed']], // void approved
        [1041, 'declined', ['declined']], // void denied
        [1042, 'undone', ['undoing', 'undone']], // void answer withheld: undone by MerchantVoidId
        [1049, 'undone', ['undoing', 'undone']], // 500: maybe voided; the undo by MerchantVoidId finds none twice after the window
        [1050, 'confirmed', ['confirming', 'confirmed']], // confirmation approved
        [1051, 'confirmed', ['confirming', 'confirmed']], // confirmation denied once, the retry confirms
        [1052, 'confirmed', ['confirming', 'confirmed']], // confirmation withheld: the retry finds it confirmed
        [1059, 'confirmed', ['confirming', 'confirmed']], // confirmation 500, then confirmed
      ];
      const results: Record<number, string> = {};
      const ms: number[] = [];
      for (const [amount, want, tail] of cases) {
        chip0();
        const saleId = await t.sell(amount);
        const v = await voidAndSettle(t, saleId);
        results[amount] = v.state;
        const steps = t.journal.transitions(v.id);
        ms.push(Date.parse(steps.at(-1)!.at) - Date.parse(steps[0]!.at));
        expect(v.state, `cents ${amount % 100}`).toBe(want);
        expect(
          t.journal
            .transitions(v.id)
            .map((x) => x.to)
            .slice(-tail.length),
          `cents ${amount % 100}`,
        ).toEqual(tail);
        const l = await ledgerSale(t, saleId);
        expect(l.voided, `cents ${amount % 100}`).toBe(want === 'confirmed' ? amount : 0);
        expect(t.voids.remaining(saleId).remaining, `cents ${amount % 100}`).toBe(want === 'confirmed' ? 0 : amount);
      }
      console.log(
        'void outcomes by cents',
        results,
        'ms from the void row to its end (card read, host, FCX, outbox):',
        ms,
      );
      t.close();
    }, 120_000);

    it('killed while the void request was out: recovery undoes it by MerchantVoidId and the sale stays charged', async () => {
      const dir = tempDir();
      const real = new OmniVoidAdapter(h.acquirer.omni);
      const dying: VoidHostPort = {
        void: async (order) => {
          await real.void(order);
          return new Promise(() => undefined);
        },
      };
      const before = scannedOnClose(voidTerminal({ dir, h, pinpad: spy, tables, log, voidHost: dying }));
      chip0();
      const saleId = await before.sell(1000);
      const { entry } = await before.voids.start(saleId, byToken);
      for (let i = 0; i < 200 && (await ledgerSale(before, saleId)).voided === 0; i++)
        await new Promise((r) => setTimeout(r, 20));
      expect(before.journal.get(entry.id)?.state).toBe('voiding');
      expect(await ledgerSale(before, saleId)).toMatchObject({ voided: 1000 });
      before.close();
      // the pinpad still holds the chip session of the dead terminal: end it as a restart would
      await rig.pinpad.run(card.FCX, { outcome: 'no-communication', tags: ['95'] }).catch(() => undefined);

      const after = scannedOnClose(voidTerminal({ dir, h, pinpad: spy, tables, log }));
      expect(after.voids.recover()).toEqual([{ id: entry.id, from: 'voiding', plan: 'undoing' }]);
      await after.settle();
      expect(after.journal.get(entry.id)?.state).toBe('undone');
      expect(await ledgerSale(after, saleId)).toMatchObject({ voided: 0, charged: 1000 });
      after.close();
    }, 60_000);

    it('one payment on the pinpad at a time: a sale while a void reads the card, or a void while a sale does, is ENGINE_BUSY', async () => {
      const slowGcx: CardPinpad = {
        async run<Req, Res>(spec: CommandSpec<Req, Res>, req: Req, opts?: RunOptions): Promise<Res> {
          if (spec === (card.GCX as unknown)) await new Promise((r) => setTimeout(r, 400));
          return spy.run(spec, req, opts);
        },
      };
      const t = terminal({ pinpad: slowGcx });
      chip0();
      const saleId = await t.sell(1000);
      const { entry, done } = await t.voids.start(saleId, { ...byToken, amount: 100 });
      await expect(
        t.sales.start({ amount: 500, method: 'credit', installments: 1, interest: 'ByMerchant', confirmation: 'auto' }),
      ).rejects.toMatchObject({ code: 'ENGINE_BUSY' });
      await expect(t.voids.start(saleId, { ...byToken, amount: 100 })).rejects.toMatchObject({ code: 'ENGINE_BUSY' });
      await done;
      await t.settle();
      expect(t.journal.get(entry.id)?.state).toBe('confirmed');
      const sale = await t.sales.start({
        amount: 700,
        method: 'credit',
        installments: 1,
        interest: 'ByMerchant',
        confirmation: 'auto',
      });
      await expect(t.voids.start(saleId, { ...byToken, amount: 100 })).rejects.toMatchObject({ code: 'ENGINE_BUSY' });
      await sale.done;
      await t.settle();
      t.close();
    }, 60_000);

    it('a sale left charged by an undo after the daily close (needs-refund) is voided when the customer returns', async () => {
      const t = terminal();
      chip0();
      const { entry, done } = await t.sales.start({
        amount: 1000,
        method: 'credit',
        installments: 1,
        interest: 'ByMerchant',
        confirmation: 'ecr',
      });
      await done;
      expect(t.journal.get(entry.id)?.state).toBe('awaiting-decision');
      expect((await h.control('POST', '/sandbox/close-day')).status).toBe(200);
      await t.sales.decide(entry.id, 'undo');
      await t.settle();
      expect(t.journal.get(entry.id)?.state).toBe('needs-refund');
      expect(await ledgerSale(t, entry.id)).toMatchObject({ charged: 1000 });
      const v = await voidAndSettle(t, entry.id);
      expect(v.state).toBe('confirmed');
      expect(await ledgerSale(t, entry.id)).toMatchObject({ voided: 1000, charged: 0 });
      t.close();
    }, 60_000);

    it('killed after the host approved but before the chip finished: recovery undoes the void by VoidId; killed while confirming: recovery confirms it', async () => {
      const dir = tempDir();
      const hanging = (p: CardPort): CardPort => ({
        readCard: (r, s) => p.readCard(r, s),
        finishChip: () => new Promise(() => undefined),
        end: (m) => p.end(m),
      });
      const before = scannedOnClose(voidTerminal({ dir, h, pinpad: spy, tables, log, voidCard: hanging }));
      chip0();
      const saleId = await before.sell(1000);
      const { entry } = await before.voids.start(saleId, byToken);
      for (let i = 0; i < 200 && before.journal.get(entry.id)?.state !== 'finishing-chip'; i++)
        await new Promise((r) => setTimeout(r, 20));
      expect(before.journal.get(entry.id)?.state).toBe('finishing-chip');
      expect(await ledgerSale(before, saleId)).toMatchObject({ voided: 1000 });
      before.close();
      await rig.pinpad.run(card.FCX, { outcome: 'no-communication', tags: ['95'] }).catch(() => undefined);
      const after = scannedOnClose(voidTerminal({ dir, h, pinpad: spy, tables, log }));
      expect(after.voids.recover()).toEqual([{ id: entry.id, from: 'finishing-chip', plan: 'undoing' }]);
      expect(after.outbox.open()[0]?.payload).toMatchObject({ voidId: expect.any(String) });
      await after.settle();
      expect(after.journal.get(entry.id)?.state).toBe('undone');
      expect(await ledgerSale(after, saleId)).toMatchObject({ voided: 0, charged: 1000 });

      // a void approved and journaled confirming, the terminal stopped before the outbox delivered it
      const { entry: second, done } = await after.voids.start(saleId, byToken);
      await done;
      expect(after.journal.get(second.id)?.state).toBe('confirming');
      after.close();
      const again = scannedOnClose(voidTerminal({ dir, h, pinpad: spy, tables, log }));
      expect(again.voids.recover()).toEqual([{ id: second.id, from: 'confirming', plan: 'ensure' }]);
      await again.settle();
      expect(again.journal.get(second.id)?.state).toBe('confirmed');
      expect(await ledgerSale(again, saleId)).toMatchObject({ voided: 1000, charged: 0 });
      again.close();
    }, 60_000);

    it("a void without an answer that the host confirms at its daily close before the undo arrives: the refusal (a code, no VoidId to query) decides nothing before the close; past it, what the sale's query cannot tell ends a dead letter with an alarm (issue 17)", async () => {
      // The terminal's clock, moved past the close of the void's day once the host has closed it.
      let offsetMs = 0;
      const clock = { now: () => new Date(Date.now() + offsetMs) };
      const t = terminal({ clock });
      chip0();
      const saleId = await t.sell(1042);
      const { entry, done } = await t.voids.start(saleId, byToken);
      await done;
      expect(t.journal.get(entry.id)?.state).toBe('undoing');
      expect((await h.control('POST', '/sandbox/close-day')).status).toBe(200);
      // Before the close of its day, the host's refusal (a code, no VoidId to query) decides nothing.
      await t.settle();
      expect(t.journal.get(entry.id)?.state).toBe('undoing');
      offsetMs = 86_400_000;
      await t.settle();
      // The sandbox's sale query (like the manual's) does not show the void: the terminal cannot tell it stood.
      expect(t.journal.get(entry.id)).toMatchObject({
        state: 'dead-letter',
        data: { reason: expect.stringContaining('ask the acquirer') },
      });
      expect(t.events.some((e) => e.type === 'alarm' && e.code === 'VOID_UNDO_DEAD_LETTER')).toBe(true);
      expect(await ledgerSale(t, saleId)).toMatchObject({ voided: 1042, charged: 0 });
      expect(t.voids.remaining(saleId).remaining).toBe(0);
      t.close();
    }, 60_000);

    it('no PAN, track or PIN in the SQLite files or the logs after all of the above', () => {
      expect(scanned).toBeGreaterThanOrEqual(8);
      expect(leaks).toEqual([]);
      const logs = output();
      expect(logs.length).toBeGreaterThan(0);
      for (const secret of clearCardData()) expect(logs.includes(secret)).toBe(false);
      for (const c of TEST_CARDS) expect(logs).not.toMatch(new RegExp(`"pin(Block)?":"?${c.pin}`));
      expect(ciphertexts.size).toBeGreaterThan(20);
      for (const c of ciphertexts)
        expect(logs.toUpperCase().includes(c), `ciphertext ${c.slice(0, 8)}… in the logs`).toBe(false);
    });
  },
);
