import { describe, expect, it } from 'vitest';
import { card, type CommandSpec, type RunOptions } from '../../../drivers/pinpad/index.js';
import type { CardPinpad } from '../../../src/adapters/pinpad-card.js';
import { HAS_SOCAT } from '../../helpers/socat.js';
import {
  h,
  rig,
  seen,
  spy,
  terminal,
  chip0,
  byToken,
  ledgerSale,
  voidAndSettle,
  useCardVoidRig,
  expectNoCardData,
} from './card-void-rig.js';
import { SUPERVISOR_PASSWORD } from './terminal.js';

useCardVoidRig();

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
        // 500: maybe voided; the undo by MerchantVoidId finds none, which is never final before the close of the
        // void's day and the window after it (issue 29 defect 1): still undoing, its amount held meanwhile.
        [1049, 'undoing', ['undoing']],
        [1050, 'confirmed', ['confirming', 'confirmed']], // confirmation approved
        [1051, 'confirmed', ['confirming', 'confirmed']], // confirmation denied once, the retry confirms
        [1052, 'confirmed', ['confirming', 'confirmed']], // confirmation withheld: the retry finds it confirmed
        [1059, 'confirmed', ['confirming', 'confirmed']], // confirmation 500, then confirmed
      ];
      const results: Record<number, string> = {};
      const ms: number[] = [];
      // A void left undoing stays in the outbox until the close: the cases after it settle around it (`open`), and
      // its own settle is ten passes of the outbox, each an undo and a query that find nothing.
      let open = 0;
      for (const [amount, want, tail] of cases) {
        chip0();
        const saleId = await t.sell(amount, { open });
        const v = await voidAndSettle(t, saleId, { settle: want === 'undoing' ? { rounds: 10, open } : { open } });
        results[amount] = v.state;
        if (want === 'undoing') {
          // Passes until five undo attempts were made (the backoff decides how many passes that takes): still undoing.
          const attempts = (): number => t.outbox.open().find((o) => o.journalId === v.id)?.attempts ?? 0;
          for (let i = 0; i < 300 && attempts() < 5; i++) await t.settle({ rounds: 1, open });
          expect(attempts(), 'undo attempts').toBeGreaterThanOrEqual(5);
          expect(t.journal.get(v.id)?.state).toBe('undoing');
          open++;
        }
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
        expect(t.voids.remaining(saleId).remaining, `cents ${amount % 100}`).toBe(
          want === 'confirmed' || want === 'undoing' ? 0 : amount,
        );
      }
      console.log(
        'void outcomes by cents',
        results,
        'ms from the void row to its end (card read, host, FCX, outbox):',
        ms,
      );
      t.close();
    }, 120_000);

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

    it('no PAN, track or PIN in the SQLite files or the logs after all of the above', () => {
      expectNoCardData({ terminals: 5, ciphertextsOver: 20 });
    });
  },
);
