import { describe, expect, it } from 'vitest';
import { cnpTransition } from '../../../../src/engine/cnp/machine.js';
import { undoSettled } from '../../../../src/engine/undo-settled.js';
import type { CnpChange, CnpState, CnpStateName } from '../../../../src/engine/cnp/types.js';

/**
 * A pre-authorization's capture and void as pure transitions: journaled before they leave, moved by
 * their own answer, and a lost answer handed to the outbox task that settles it (the capture's query,
 * the undo race for a whole void, the query only for a part).
 */
const row = (name: CnpStateName, extra: Record<string, unknown> = {}): CnpState => ({
  name,
  data: {
    request: { amount: 10_000, installments: 1, capture: false, method: 'credit' },
    merchantOrderId: '1000000000007',
    backend: 'ecommerce',
    sentAt: '2026-11-29T12:00:00.000Z',
    paymentId: 'p-7',
    ...extra,
  },
});
const change = (op: CnpChange['op'], from: CnpChange['from'], amount?: number): CnpChange => ({
  op,
  from,
  sentAt: '2026-11-29T13:00:00.000Z',
  ...(amount !== undefined ? { amount } : {}),
});
function step(state: CnpState, input: Parameters<typeof cnpTransition>[1]) {
  const s = cnpTransition(state, input);
  if (!s.ok) throw new Error(s.reason);
  return s;
}

describe('the capture and void of a card-not-present sale', () => {
  it('asked: authorized → capturing, authorized or captured → voiding; nothing else', () => {
    expect(step(row('authorized'), { kind: 'change', change: change('capture', 'authorized') }).state.name).toBe(
      'capturing',
    );
    expect(step(row('captured'), { kind: 'change', change: change('void', 'captured', 10) }).state.name).toBe(
      'voiding',
    );
    for (const name of ['sending', 'declined', 'voided', 'capturing', 'undone'] as const)
      expect(cnpTransition(row(name), { kind: 'change', change: change('void', 'captured') }).ok).toBe(false);
    expect(cnpTransition(row('captured'), { kind: 'change', change: change('capture', 'authorized') }).ok).toBe(false);
  });

  it('answered: done moves the amounts; refused goes back where it was; lost keeps the row and asks its settlement', () => {
    const capturing = row('capturing', { change: change('capture', 'authorized', 6000) });
    expect(
      step(capturing, { kind: 'changed', outcome: { kind: 'done', state: 'approved', detail: 'Status 2' } }).state,
    ).toMatchObject({
      name: 'captured',
      data: { capturedAmount: 6000 },
    });
    const refused = step(capturing, { kind: 'changed', outcome: { kind: 'refused', code: '308', detail: 'HTTP 400' } });
    expect(refused.state.name).toBe('authorized');
    expect(refused.state.data.change).toBeUndefined();
    const lost = step(capturing, { kind: 'changed', outcome: { kind: 'unknown', detail: 'transport timeout' } });
    expect([lost.state.name, lost.effects]).toEqual(['capturing', [{ kind: 'outbox.cnp-capture' }]]);
    const whole = row('voiding', { capturedAmount: 6000, change: change('void', 'captured') });
    expect(step(whole, { kind: 'changed', outcome: { kind: 'unknown', detail: 'HTTP 503' } }).effects).toEqual([
      { kind: 'outbox.cnp-undo' },
    ]);
    const part = row('voiding', { capturedAmount: 6000, voidedAmount: 1000, change: change('void', 'captured', 500) });
    expect(step(part, { kind: 'changed', outcome: { kind: 'unknown', detail: 'HTTP 503' } }).effects).toEqual([
      { kind: 'outbox.cnp-void-part' },
    ]);
    expect(
      step(part, { kind: 'changed', outcome: { kind: 'done', state: 'approved', detail: 'Status 2' } }).state,
    ).toMatchObject({
      name: 'captured',
      data: { voidedAmount: 1500 },
    });
    expect(
      step(whole, { kind: 'changed', outcome: { kind: 'done', state: 'cancelled', detail: 'Status 11' } }).state,
    ).toMatchObject({
      name: 'voided',
      data: { voidedAmount: 6000 },
    });
  });

  it('settled by the outbox: a capture the host shows voided is a dead letter; a whole void too late ends needs-refund with NEEDS_REFUND', () => {
    const capturing = row('capturing', { change: change('capture', 'authorized') });
    const dead = step(capturing, { kind: 'delivered', action: 'dead-letter', reason: 'the host shows it undone' });
    expect(dead.state.name).toBe('dead-letter');
    expect(dead.effects).toEqual([expect.objectContaining({ kind: 'alarm', code: 'CONFIRM_DEAD_LETTER' })]);
    // What the host showed is kept: the day reads the row by it (nothing charged: operations/day/lines.ts).
    expect(dead.state.data.hostShows).toBeUndefined();
    const shown = step(capturing, {
      kind: 'delivered',
      action: 'dead-letter',
      reason: 'the host shows it cancelled',
      shown: 'cancelled',
    });
    expect(shown.state).toMatchObject({ name: 'dead-letter', data: { hostShows: 'cancelled', change: undefined } });
    const whole = row('voiding', { change: change('void', 'captured') });
    const late = step(whole, { kind: 'delivered', action: 'needs-refund', reason: 'still paid after the close' });
    // The card sale's own end of the race (undo-settled.ts): the same state and the same alarm.
    const cardSale = undoSettled(
      { kind: 'delivered', action: 'needs-refund', reason: 'still paid after the close' },
      's',
    );
    expect(late.state.name).toBe(cardSale.to);
    expect(late.state.name).toBe('needs-refund');
    expect(late.state.data.change).toBeUndefined();
    expect(late.effects).toEqual([expect.objectContaining({ kind: 'alarm', code: cardSale.alarm?.code })]);
    const given = step(whole, { kind: 'delivered', action: 'dead-letter', reason: 'gave up' });
    expect([given.state.name, given.effects]).toEqual([
      'captured',
      [expect.objectContaining({ kind: 'alarm', code: 'UNDO_DEAD_LETTER' })],
    ]);
    expect(step(whole, { kind: 'delivered', action: 'done', reason: 'Status 10' }).state.name).toBe('voided');
    const part = row('voiding', { capturedAmount: 6000, change: change('void', 'captured', 500) });
    // The query decides the row's state from what the host shows (`cnp.void (part)`).
    const applied = step(part, { kind: 'delivered', action: 'done', reason: 'applied', shown: 'approved' });
    expect(applied.state).toMatchObject({ name: 'captured', data: { voidedAmount: 500 } });
    const voidedWhole = step(part, { kind: 'delivered', action: 'done', reason: 'voided-whole', shown: 'undone' });
    expect(voidedWhole.state).toMatchObject({ name: 'voided', data: { voidedAmount: 6000 } });
    const notShown = step(part, { kind: 'delivered', action: 'dead-letter', reason: 'never shown' });
    expect(notShown.state).toMatchObject({ name: 'captured', data: { reason: 'never shown' } });
    expect(notShown.effects).toEqual([expect.objectContaining({ kind: 'alarm', code: 'DEAD_LETTER' })]);
  });

  it('a sale in needs-refund is voided as a captured one: whole → voided; a part leaves it needs-refund for the rest; refused, back', () => {
    const owed = row('needs-refund', { capturedAmount: 6000, voidedAmount: 1000 });
    const asked = step(owed, { kind: 'change', change: change('void', 'needs-refund') });
    expect(asked.state.name).toBe('voiding');
    expect(
      step(asked.state, { kind: 'changed', outcome: { kind: 'done', state: 'cancelled', detail: 'Status 11' } }).state,
    ).toMatchObject({ name: 'voided', data: { voidedAmount: 6000 } });
    const part = step(owed, { kind: 'change', change: change('void', 'needs-refund', 2000) }).state;
    expect(
      step(part, { kind: 'changed', outcome: { kind: 'done', state: 'approved', detail: 'Status 2' } }).state,
    ).toMatchObject({ name: 'needs-refund', data: { voidedAmount: 3000 } });
    const refused = step(part, { kind: 'changed', outcome: { kind: 'refused', code: '309', detail: 'HTTP 400' } });
    expect(refused.state.name).toBe('needs-refund');
  });
});
