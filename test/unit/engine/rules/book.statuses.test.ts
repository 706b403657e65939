import { describe, expect, it } from 'vitest';
import {
  CANCELLATION_STATES,
  ECOMMERCE_PIX_STATES,
  ECOMMERCE_QR_SALE_STATES,
  OMNI_SALE_STATES,
  matchRow,
} from '../../../../src/acquirer/omni/states.js';
import {
  CONFIRM,
  PIX_CANCEL,
  PIX_REFUND,
  PIX_REFUND_ASKED,
  QR_WATCH,
  UNDO,
  VOID_CONFIRM,
  VOID_UNDO,
  type Table,
} from '../../../../src/engine/rules/index.js';
import published from '../../../../tables/acquirer/published-statuses.json' with { type: 'json' };

/**
 * The homologation analyst's question of the rulebook: for every status the host documents for an
 * operation's answer, does the terminal have a row of its own — a mapping of that number (with its
 * source) to a word, and that word's row in each of the operation's tables — rather than falling to
 * "an answer no documented row reads"? The status lists are read from the manual's text as
 * transcribed in tables/acquirer/published-statuses.json, never from our rulebook. A documented
 * status without a row fails here; what the manual does not settle is a homologation question
 * (docs/decisions.md) and a row that never reads paid nor "nothing charged" on a guess.
 */
const list = (name: string): { source: string; entries: { n: number; means: string; payers: string }[] } => {
  const l = published.lists.find((x) => x.name === name);
  if (!l) throw new Error(`no published list ${name}`);
  const entries = [...l.text.matchAll(/(\d+) = ([^(\d]+?)(?: \(([^)]*(?:\([^)]*\)[^)]*)?)\))?(?= \d+ |$| \d)/g)].map(
    (m) => ({ n: Number(m[1]), means: (m[2] ?? '').trim(), payers: m[3] ?? '' }),
  );
  return { source: l.source, entries };
};

const numbers = (name: string, payer?: RegExp): number[] =>
  list(name)
    .entries.filter((e) => !payer || payer.test(e.payers))
    .map((e) => e.n);

/** The words a table reads on its own rows (`unknown` is the fallback for what no documented row reads). */
const rowOf = <A extends string>(table: Table<A>, word: A): string =>
  word === 'unknown' ? 'no row (falls to unknown)' : `${table[word].decision}`;

describe('the published status lists, as transcribed', () => {
  it('read as the manual prints them', () => {
    expect(numbers('terminal sale Payment.Status')).toEqual([0, 1, 2, 3, 10, 13]);
    expect(numbers('terminal sale Payment.ConfirmationStatus')).toEqual([0, 1, 2]);
    expect(numbers('void CancellationStatus')).toEqual([0, 1, 2, 3, 4]);
    expect(numbers('e-commerce Status transacional')).toEqual([0, 1, 2, 3, 10, 11, 12, 13, 20]);
    expect(numbers('Pix life cycle')).toEqual([12, 2, 11]);
  });
});

describe('every documented status has its row', () => {
  it('a terminal sale: every Status × ConfirmationStatus (pt:2515 × pt:2513, or none) maps to a word each sale table reads', () => {
    const missing: string[] = [];
    for (const status of numbers('terminal sale Payment.Status'))
      for (const confirmationStatus of [undefined, ...numbers('terminal sale Payment.ConfirmationStatus')]) {
        const row = matchRow(OMNI_SALE_STATES, { status, confirmationStatus });
        if (!row) missing.push(`Status ${status}, ConfirmationStatus ${String(confirmationStatus)}`);
        else for (const t of [CONFIRM, UNDO, QR_WATCH]) expect(rowOf(t, row.state)).not.toMatch(/no row/);
      }
    expect(missing).toEqual([]);
  });

  it('a void: every CancellationStatus (pt:8111) maps to a word both void tables read', () => {
    for (const n of numbers('void CancellationStatus')) {
      const row = CANCELLATION_STATES.find((r) => r.cancellationStatus === n);
      expect([n, row?.answer ?? 'no row']).not.toEqual([n, 'no row']);
      for (const t of [VOID_CONFIRM, VOID_UNDO]) expect(rowOf(t, row!.answer)).not.toMatch(/no row/);
    }
  });

  /** The e-commerce QR sale (an e-wallet's): 12 is read before the table, as "not found" (the code not paid yet). */
  const qrMissing = (): number[] =>
    numbers('e-commerce Status transacional', /Todos|e-wallets/).filter(
      (n) => n !== 12 && !matchRow(ECOMMERCE_QR_SALE_STATES, { status: n }),
    );
  it('an e-commerce QR sale: every status the table names for e-wallets has a row (20 Scheduled, ecom:7379: pending, never paid nor nothing charged)', () => {
    expect(qrMissing()).toEqual([]);
  });

  /** A Pix charge: the statuses the table names for every payment or for Pix, and its life cycle's. */
  const pixMissing = (): number[] =>
    [...new Set([...numbers('e-commerce Status transacional', /Todos|pix/), ...numbers('Pix life cycle')])].filter(
      (n) => {
        const row = matchRow(ECOMMERCE_PIX_STATES, { status: n });
        if (row)
          for (const t of [PIX_CANCEL, PIX_REFUND, PIX_REFUND_ASKED]) expect(rowOf(t, row.state)).not.toMatch(/no row/);
        return !row;
      },
    );
  it('a Pix charge: every status of its life cycle and of the table for Pix has a row (0 and 1 pending, ecom:7371-7372; 13 cancelled, ecom:7378)', () => {
    expect(pixMissing()).toEqual([]);
  });
});
