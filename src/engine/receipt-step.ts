import type { Logger } from '../core/log/index.js';
import type { ReceiptResult } from './machine-vocabulary.js';
import type { ReceiptPort, ReceiptSubject } from './ports.js';
import type { SaleContext } from './sale/types.js';

/*
 * The receipt step of all four machines. The card, wallet QR and Pix sales journal it (`receiptStep`:
 * `printing` is committed before a byte goes out, and the printer's word is an input of the
 * machine); the void prints once approved, with no `printing` state, and a receipt that did not
 * come out only raises an alarm (`unprintedVoidAlarm`). Every one of them prints through
 * `printReceipt`.
 */

/** The inputs the receipt step answers, as the card, wallet QR and Pix machines spell them. */
type ReceiptStepInput =
  | { kind: 'print' }
  | { kind: 'receipt'; result: 'printed' | 'skipped' | 'failed' | 'unsure' }
  | { kind: 'cancel'; by: string }
  | { kind: 'decision'; decision: 'confirm' | 'undo'; by: string };

function is<K extends ReceiptStepInput['kind']>(
  input: { kind: string },
  kind: K,
): input is Extract<ReceiptStepInput, { kind: K }> {
  return input.kind === kind;
}

/** How a machine moves: its own states, effects and way of giving the money back. */
export interface ReceiptMoves<R> {
  /** Into (or staying in) `printing` with these effects: print, or ask the cashier before a deadline. */
  printing(
    input: string,
    patch: { deadline?: string },
    ...effects: ({ kind: 'print.receipt' } | { kind: 'ask.receipt' } | { kind: 'schedule.deadline'; at: string })[]
  ): R;
  /** The receipt is out, or deliberately not printed. */
  after(input: string, receipt: 'printed' | 'skipped'): R;
  /** The money goes back: an undo (wallet QR) or a refund (Pix). */
  giveBack(input: string, reason: string): R;
  refuse(): R;
}

/**
 * The paid sale's receipt step, alike for card, wallet QR and Pix sales: `printing` is committed before
 * a byte goes out (a customer who declined the receipt gets none); an unsure receipt asks the
 * cashier with a deadline, or gives the money back on a kiosk; a cancel or an undo before the
 * receipt is out gives it back.
 */
export function receiptStep<R>(
  state: 'approved' | 'printing',
  receiptDeclined: boolean,
  input: { kind: string },
  ctx: SaleContext,
  m: ReceiptMoves<R>,
): R {
  if (is(input, 'cancel')) return m.giveBack(`cancel by ${input.by}`, `cancelled by ${input.by}`);
  if (state === 'approved') {
    if (is(input, 'print'))
      return receiptDeclined
        ? m.after('receipt declined', 'skipped')
        : m.printing('print', {}, { kind: 'print.receipt' });
    if (is(input, 'decision') && input.decision === 'undo')
      return m.giveBack(`undo by ${input.by}`, `undone before the receipt (${input.by})`);
    return m.refuse();
  }
  if (is(input, 'receipt')) {
    if (input.result === 'printed' || input.result === 'skipped')
      return m.after(`receipt ${input.result}`, input.result);
    if (input.result === 'unsure' && ctx.attended) {
      const deadline = ctx.decisionDeadline(ctx.now).toISOString();
      return m.printing(
        'receipt unsure',
        { deadline },
        { kind: 'ask.receipt' },
        { kind: 'schedule.deadline', at: deadline },
      );
    }
    return m.giveBack(
      `receipt ${input.result}`,
      input.result === 'unsure' ? 'nobody can tell whether the receipt came out' : 'the receipt did not come out',
    );
  }
  if (is(input, 'decision') && input.decision === 'undo') {
    return m.giveBack(
      `undo by ${input.by}`,
      input.by === 'deadline'
        ? 'no answer about the receipt before the deadline'
        : `undone before the receipt was out (${input.by})`,
    );
  }
  return m.refuse();
}

/**
 * The paid sale awaiting the cash register's decision (the receipt was unsure), alike for card,
 * wallet QR and Pix sales: `confirm` keeps the money, as the machine confirms; an undo, the
 * deadline passing or a cancel gives it back.
 */
export function decisionStep<R>(
  input: { kind: string },
  confirm: (input: string) => R,
  m: Pick<ReceiptMoves<R>, 'giveBack' | 'refuse'>,
): R {
  if (is(input, 'decision')) {
    if (input.decision === 'confirm') return confirm(`confirm by ${input.by}`);
    return m.giveBack(
      `undo by ${input.by}`,
      input.by === 'deadline' ? 'no decision before the deadline' : `undone by ${input.by}`,
    );
  }
  if (is(input, 'cancel')) return m.giveBack(`cancel by ${input.by}`, `cancelled by ${input.by}`);
  return m.refuse();
}

/**
 * Prints `subject` on `port`: once with the port's default copy (`copies` absent: the sales), or
 * each of `copies` in turn (the void: the customer's, then the merchant's), stopping at a copy
 * that did not come out. Never throws: a port that throws is `unsure` (logged). The result is
 * the worst of the copies': `failed`, then `unsure`, then `skipped`, then `printed`.
 */
export async function printReceipt(
  port: ReceiptPort,
  subject: ReceiptSubject,
  log: Pick<Logger, 'warn'>,
  copies?: readonly ('customer' | 'merchant')[],
): Promise<ReceiptResult> {
  let worst: ReceiptResult = 'printed';
  for (const copy of copies ?? [undefined]) {
    let result: ReceiptResult;
    try {
      result = await (copy ? port.print(subject, { copy }) : port.print(subject));
    } catch (err) {
      log.warn({ merchantOrderId: subject.merchantOrderId, ...(copy ? { copy } : {}), err }, 'receipt failed');
      result = 'unsure';
    }
    if (result === 'failed') return result;
    if (RANK[result] > RANK[worst]) worst = result;
  }
  return worst;
}

const RANK: Record<ReceiptResult, number> = { printed: 0, skipped: 1, unsure: 2, failed: 3 };

/**
 * The void's receipt rule: printed after approval, a receipt that did not come out never undoes
 * the void (the money already goes back) — it raises VOID_RECEIPT_FAILED for a reprint.
 */
export function unprintedVoidAlarm(
  merchantVoidId: string,
  result: ReceiptResult,
): { kind: 'alarm'; code: 'VOID_RECEIPT_FAILED'; message: string } | undefined {
  if (result === 'printed' || result === 'skipped') return undefined;
  return {
    kind: 'alarm',
    code: 'VOID_RECEIPT_FAILED',
    message: `the receipt of void ${merchantVoidId} was ${result === 'failed' ? 'not printed' : 'maybe not printed'}: reprint it`,
  };
}
