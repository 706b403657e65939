import type { CnpChangeOutcome, CnpSaleOutcome, HostSaleState, SaleQuery } from '../../engine/index.js';
import { describe, readAnswer, type Ws15Answer } from './answers.js';

/**
 * The webservice 1.5's answers → the rulebook's words, pure and tested row by row. Only a body the
 * manual documents decides: a `<transacao>` with a status in its table (codes.ts), or an `<erro>`
 * with a published code; the HTTP status of an error answer is "not shown" by the manual, so the
 * body decides, never the status. An unpublished code, a body that is not XML, a timeout or a lost
 * connection leaves the outcome unknown (the query decides).
 */
export type Ws15Exchange =
  | { kind: 'answer'; status: number; text: string }
  /** `not-sent`: the request never left; `timeout` / `lost`: it may have reached the host. */
  | { kind: 'transport'; failure: 'not-sent' | 'timeout' | 'lost' };

/** The answer an exchange carries, or why there is none. */
export function answerOf(ex: Ws15Exchange): Ws15Answer | { kind: 'transport'; failure: string } {
  if (ex.kind === 'transport') return { kind: 'transport', failure: ex.failure };
  const a = readAnswer(ex.text);
  return a.kind === 'bad' ? { kind: 'bad', reason: `HTTP ${ex.status}: ${a.reason}` } : a;
}

/** `requisicao-transacao` with `autorizar` 3 or 4: 4 is asked-for without capture, 6 with it (ws15:1218-1221). */
export function saleOutcome(ex: Ws15Exchange, captureRequested: boolean): CnpSaleOutcome {
  const a = answerOf(ex);
  if (a.kind === 'transport')
    return { answer: a.failure === 'not-sent' ? 'not-sent' : 'unknown', detail: `transport ${a.failure}` };
  const detail = a.kind === 'bad' ? a.reason : describe(a);
  // A refused message created nothing (ws15:495-496); a failure of the service may have.
  if (a.kind === 'erro') return { answer: a.row?.meaning === 'refused' ? 'refused' : 'unknown', detail };
  if (a.kind !== 'transacao' || !a.row) return { answer: 'unknown', detail };
  const kept = { paymentId: a.tid, state: a.row.state, detail, ...(a.arp ? { authorizationCode: a.arp } : {}) };
  if (a.row.state === 'declined') return { answer: 'declined', ...kept };
  if ((a.row.status === 6 && captureRequested) || (a.row.status === 4 && !captureRequested))
    return { answer: 'approved', ...kept };
  // Authorized but not captured although asked, or captured although not asked: voided by the rulebook.
  if (a.row.status === 4 || a.row.status === 6) return { answer: 'anomaly', ...kept };
  return { answer: 'unknown', ...kept };
}

/**
 * A capture's or a cancellation's answer: `done` when its `<transacao>` shows one of the states it
 * leads to, `refused` on a published `erro` whose message was refused (nothing changed), else `unknown`.
 */
export function changeOutcome(ex: Ws15Exchange, expected: readonly HostSaleState[]): CnpChangeOutcome {
  const a = answerOf(ex);
  if (a.kind === 'transport')
    return a.failure === 'not-sent'
      ? { kind: 'refused', detail: 'not sent' }
      : { kind: 'unknown', detail: `transport ${a.failure}` };
  if (a.kind === 'bad') return { kind: 'unknown', detail: a.reason };
  const detail = describe(a);
  if (a.kind === 'erro')
    return a.row?.meaning === 'refused' ? { kind: 'refused', code: a.row.code, detail } : { kind: 'unknown', detail };
  if (a.kind !== 'transacao' || !a.row || !expected.includes(a.row.state)) return { kind: 'unknown', detail };
  const voided = a.cancelledCents.reduce((s, c) => s + c, 0);
  return {
    kind: 'done',
    state: a.row.state,
    ...(a.capturedCents !== undefined ? { capturedCents: a.capturedCents } : {}),
    ...(a.cancelledCents.length > 0 ? { voidedCents: voided } : {}),
    detail,
  };
}

/** `requisicao-consulta` or `-chsec`: the transaction's status in the engine's words; erro 3 is "not found" (ws15:731). */
export function queryOutcome(ex: Ws15Exchange): SaleQuery {
  const a = answerOf(ex);
  if (a.kind === 'transport') return { kind: 'unknown', reason: `transport ${a.failure}` };
  if (a.kind === 'bad') return { kind: 'unknown', reason: a.reason };
  if (a.kind === 'erro' && a.row?.meaning === 'not-found') return { kind: 'not-found' };
  if (a.kind !== 'transacao' || !a.row) return { kind: 'unknown', reason: describe(a) };
  const voided = a.cancelledCents.reduce((s, c) => s + c, 0);
  return {
    kind: 'found',
    paymentId: a.tid,
    state: a.row.state,
    captured: a.row.captured,
    detail: describe(a),
    ...(a.capturedCents !== undefined ? { capturedCents: a.capturedCents } : {}),
    voidedCents: voided,
  };
}
