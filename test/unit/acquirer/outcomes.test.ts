import { describe, expect, it } from 'vitest';
import { OmniposError } from '../../../src/core/errors/index.js';
import {
  exchangeOf,
  operationOutcome,
  queryOutcome,
  saleOutcome,
  voidOutcome,
  type Exchange,
  type Operation,
  type OperationAction,
} from '../../../src/acquirer/outcomes.js';
import { returnOf } from '../../../src/acquirer/errors.js';

const TIMEOUT: Exchange = { kind: 'transport', failure: 'timeout' };
const NOT_SENT: Exchange = { kind: 'transport', failure: 'not-sent' };
const LOST: Exchange = { kind: 'transport', failure: 'lost' };
const answer = (status: number, body: unknown): Exchange => ({ kind: 'answer', status, body });
const pay = (p: Record<string, unknown>): unknown => ({ MerchantOrderId: '1', Payment: { PaymentId: 'pid', ...p } });

describe('sale outcome table (DESIGN.md, "Outcome tables")', () => {
  const rows: [string, Exchange, string][] = [
    ['201 Status 2 → approved', answer(201, pay({ Status: 2, ReturnCode: '000' })), 'approved'],
    ['201 Status "2" (string) → approved', answer(201, pay({ Status: '2' })), 'approved'],
    ['201 Status 1 with capture asked → anomaly', answer(201, pay({ Status: 1 })), 'anomaly'],
    ['201 Status 3 → declined', answer(201, pay({ Status: 3, ReturnCode: '05' })), 'declined'],
    ['201 Status 0 → unknown', answer(201, pay({ Status: 0 })), 'unknown'],
    ['201 Status 13 → unknown', answer(201, pay({ Status: 13 })), 'unknown'],
    ['201 Status 10 → unknown', answer(201, pay({ Status: 10 })), 'unknown'],
    ['201 without Status → unknown', answer(201, { Payment: {} }), 'unknown'],
    ['201 with a body that is not JSON → unknown', answer(201, undefined), 'unknown'],
    ['201 Status 2 without PaymentId → unknown', answer(201, { Payment: { Status: 2 } }), 'unknown'],
    ['500 → unknown', answer(500, { ReturnCode: '500' }), 'unknown'],
    ['502 → unknown', answer(502, undefined), 'unknown'],
    ['504 → unknown', answer(504, undefined), 'unknown'],
    ['408 → unknown', answer(408, undefined), 'unknown'],
    ['400 → refused', answer(400, { ReturnCode: '400', ReturnMessage: 'Payment.Amount is required' }), 'refused'],
    ['401 → refused', answer(401, {}), 'refused'],
    ['409 duplicate MerchantOrderId → refused', answer(409, { ReturnCode: '314' }), 'refused'],
    ['302 → unknown', answer(302, undefined), 'unknown'],
    ['timeout → unknown', { kind: 'transport', failure: 'timeout' }, 'unknown'],
    ['connection lost → unknown', { kind: 'transport', failure: 'lost' }, 'unknown'],
    ['connection refused → not-sent', { kind: 'transport', failure: 'not-sent' }, 'not-sent'],
  ];
  it.each(rows)('%s', (_label, ex, kind) => {
    expect(saleOutcome(ex).kind).toBe(kind);
  });

  it('carries the ids and codes', () => {
    expect(saleOutcome(answer(201, pay({ Status: 2, ReturnCode: '000', ReturnMessage: 'APROVADA 1' })))).toEqual({
      kind: 'approved',
      paymentId: 'pid',
      returnCode: '000',
      returnMessage: 'APROVADA 1',
    });
    expect(saleOutcome(answer(409, { ReturnCode: 314, ReturnMessage: 'dup' }))).toEqual({
      kind: 'refused',
      status: 409,
      returnCode: 314,
      returnMessage: 'dup',
      duplicateOrderId: true,
    });
    expect(saleOutcome(answer(201, pay({ Status: 1 })), false).kind).toBe('approved');
  });
});

describe('operation outcome table', () => {
  const ok = (o: Record<string, unknown>): Exchange => answer(200, o);
  const err = (status: number, code?: string | number): Exchange => answer(status, code === undefined ? {} : { ReturnCode: code, ReturnMessage: 'x' });
  const rows: [Operation, string, Exchange, OperationAction][] = [
    ['confirm', '200 CS 1', ok({ ConfirmationStatus: 1, Status: 2, ReturnCode: 0 }), 'done'],
    ['confirm', '200 CS 2 (undone)', ok({ ConfirmationStatus: 2, Status: 2 }), 'dead-letter'],
    ['confirm', '200 CS 0', ok({ ConfirmationStatus: 0, Status: 2 }), 'retry'],
    ['confirm', '200 declined sale (cents 30)', ok({ Status: 3 }), 'done'],
    ['confirm', '400 ALREADY_CONFIRMED', err(400, '311'), 'done'],
    ['confirm', '400 ALREADY_UNDONE', err(400, '310'), 'dead-letter'],
    ['confirm', '400 NOT_ALLOWED', err(400, 312), 'dead-letter'],
    ['confirm', '400 DECLINED_SALE', err(400, '315'), 'done'],
    ['confirm', '400 PAST_DAILY_CLOSE (confirmed by the host)', err(400, '313'), 'done'],
    ['confirm', '400 denied (05, unnamed permanent)', err(400, '05'), 'retry'],
    ['confirm', '404', err(404, '404'), 'retry'],
    ['confirm', '401', err(401), 'retry'],
    ['confirm', '500', err(500, '500'), 'retry'],
    ['confirm', 'timeout', { kind: 'transport', failure: 'timeout' }, 'retry'],
    ['confirm', 'not sent', { kind: 'transport', failure: 'not-sent' }, 'retry'],
    ['undo', '200 CS 2', ok({ ConfirmationStatus: 2, Status: 2, ReturnCode: 0 }), 'done'],
    ['undo', '200 CS 1 (confirmed)', ok({ ConfirmationStatus: 1, Status: 2 }), 'needs-refund'],
    ['undo', '200 CS 0', ok({ ConfirmationStatus: 0 }), 'retry'],
    ['undo', '200 declined sale', ok({ Status: 3 }), 'done'],
    ['undo', '400 ALREADY_UNDONE', err(400, '310'), 'done'],
    ['undo', '400 ALREADY_CONFIRMED', err(400, '311'), 'needs-refund'],
    ['undo', '400 PAST_DAILY_CLOSE', err(400, 313), 'needs-refund'],
    ['undo', '400 DECLINED_SALE', err(400, '315'), 'done'],
    ['undo', '400 NOT_ALLOWED', err(400, '312'), 'dead-letter'],
    ['undo', '404 by order id: never final by itself', err(404, '404'), 'retry'],
    ['undo', '404 without body', err(404), 'retry'],
    ['undo', '405', err(405), 'retry'],
    ['undo', '503', err(503), 'retry'],
    ['undo', 'connection lost', { kind: 'transport', failure: 'lost' }, 'retry'],
    ['void-confirm', '200 CancellationStatus 3', ok({ CancellationStatus: 3 }), 'done'],
    ['void-confirm', '200 CancellationStatus 4', ok({ CancellationStatus: 4 }), 'dead-letter'],
    ['void-confirm', '200 CancellationStatus 2', ok({ CancellationStatus: 2 }), 'dead-letter'],
    ['void-confirm', '200 CancellationStatus 1', ok({ CancellationStatus: 1 }), 'retry'],
    ['void-confirm', '400 ALREADY_CONFIRMED', err(400, '311'), 'done'],
    ['void-confirm', '400 ALREADY_UNDONE', err(400, '310'), 'dead-letter'],
    ['void-confirm', '500', err(500), 'retry'],
    ['void-undo', '200 CancellationStatus 4', ok({ CancellationStatus: 4 }), 'done'],
    ['void-undo', '200 CancellationStatus 2', ok({ CancellationStatus: 2 }), 'done'],
    ['void-undo', '200 CancellationStatus 3', ok({ CancellationStatus: 3 }), 'dead-letter'],
    ['void-undo', '400 ALREADY_UNDONE', err(400, '310'), 'done'],
    ['void-undo', '400 ALREADY_CONFIRMED', err(400, '311'), 'dead-letter'],
    ['void-undo', '404', err(404), 'retry'],
    ['void-undo', 'timeout', { kind: 'transport', failure: 'timeout' }, 'retry'],
  ];
  it.each(rows)('%s %s → %s', (op, _label, ex, action) => {
    expect(operationOutcome(op, ex).action).toBe(action);
  });

  it('reads the manual\'s misspelt ConfirmatinoStatus', () => {
    expect(operationOutcome('confirm', answer(200, { ConfirmatinoStatus: 1 })).action).toBe('done');
  });
});

describe('void create and query tables', () => {
  it.each([
    ['201 CancellationStatus 1', answer(201, { VoidId: 'v', CancellationStatus: 1, Status: 10 }), 'approved'],
    ['201 CancellationStatus 2', answer(201, { VoidId: 'v', CancellationStatus: 2 }), 'declined'],
    ['201 CancellationStatus 0', answer(201, { VoidId: 'v', CancellationStatus: 0 }), 'unknown'],
    ['400', answer(400, { ReturnCode: '316' }), 'refused'],
    ['500', answer(500, {}), 'unknown'],
    ['timeout', TIMEOUT, 'unknown'],
    ['not sent', NOT_SENT, 'not-sent'],
  ])('void %s → %s', (_l, ex, kind) => {
    expect(voidOutcome(ex).kind).toBe(kind);
  });

  it.each([
    ['200 sale', answer(200, pay({ Status: 2, ConfirmationStatus: 0 })), 'found'],
    ['404: not found now, never final by itself', answer(404, { ReturnCode: '404' }), 'not-found'],
    ['500', answer(500, {}), 'unknown'],
    ['200 not an object', answer(200, 'x'), 'unknown'],
    ['lost', LOST, 'unknown'],
  ])('query %s → %s', (_l, ex, kind) => {
    expect(queryOutcome(ex).kind).toBe(kind);
  });
});

describe('exchangeOf', () => {
  it('reads the acquirer context of an error', () => {
    const http = new OmniposError('ACQUIRER_HTTP', 'x', { route: 'saleUndo', status: 404, returnCode: '404', outcomeUnknown: false });
    expect(exchangeOf({ error: http })).toEqual({ kind: 'answer', status: 404, body: { ReturnCode: '404', ReturnMessage: undefined } });
    const t = new OmniposError('ACQUIRER_UNREACHABLE', 'x', { route: 'saleUndo', transport: 'not-sent', outcomeUnknown: false });
    expect(exchangeOf({ error: t })).toEqual({ kind: 'transport', failure: 'not-sent' });
    expect(exchangeOf({ error: new Error('bug') })).toEqual({ kind: 'transport', failure: 'lost' });
  });
});

describe('outcome tables never throw (property, 1000 runs each)', () => {
  it('any status and any body give a decision', async () => {
    const fc = (await import('fast-check')).default;
    const seed = Date.now() % 2_147_483_647;
    console.log(`fast-check seed ${seed}`);
    const body = fc.oneof(fc.anything(), fc.record({ Payment: fc.anything(), ReturnCode: fc.oneof(fc.string(), fc.integer()) }), fc.json().map((j) => JSON.parse(j) as unknown));
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 599 }), body, fc.constantFrom<Operation>('confirm', 'undo', 'void-confirm', 'void-undo'), (status, b, op) => {
        const ex = answer(status, b);
        expect(['approved', 'anomaly', 'declined', 'refused', 'not-sent', 'unknown']).toContain(saleOutcome(ex).kind);
        expect(['done', 'retry', 'dead-letter', 'needs-refund']).toContain(operationOutcome(op, ex).action);
        expect(['approved', 'declined', 'refused', 'not-sent', 'unknown']).toContain(voidOutcome(ex).kind);
        expect(['found', 'not-found', 'unknown']).toContain(queryOutcome(ex).kind);
        if (status >= 500) expect(saleOutcome(ex).kind).toBe('unknown');
        if (status === 404 && returnOf(b).returnCode === undefined) expect(operationOutcome(op, ex).action).not.toBe('done');
      }),
      { numRuns: 1000, seed },
    );
  });
});
