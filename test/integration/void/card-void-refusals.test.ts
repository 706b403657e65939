import { describe, expect, it } from 'vitest';
import { TEST_CARDS } from '../../../tables/test-cards.js';
import { HAS_SOCAT } from '../../helpers/socat.js';
import {
  h,
  rig,
  terminal,
  chip0,
  byToken,
  ledgerSale,
  voidAndSettle,
  useCardVoidRig,
  expectNoCardData,
} from './card-void-rig.js';

useCardVoidRig();

describe.skipIf(!HAS_SOCAT)(
  'card voids end to end: the virtual pinpad over a pty, the strict sandbox over loopback, SQLite on a file',
  () => {
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

    it('no PAN, track or PIN in the SQLite files or the logs after all of the above', () => {
      expectNoCardData({ terminals: 3, ciphertextsOver: 10 });
    });
  },
);
