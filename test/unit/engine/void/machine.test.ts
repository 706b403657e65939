import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { voidTransition } from '../../../../src/engine/void/machine.js';
import { planVoidRecovery } from '../../../../src/engine/void/recovery.js';
import {
  FINAL_VOID_STATES,
  VOID_HOLDS_AMOUNT,
  voidStatus,
  VOID_STATES,
  type HostVoidOutcome,
  type VoidInput,
  type VoidState,
} from '../../../../src/engine/void/types.js';
import type { CardSummary } from '../../../../src/engine/sale/types.js';

const chipCard: CardSummary = {
  maskedPan: '476173******0060',
  inputMode: 'Emv',
  chip: true,
  isFallback: false,
  authenticationMethod: 'OnlineAuthentication',
  productId: 1,
  issuerId: 1010,
  expiry: '1230',
  panSequenceNumber: '01',
};
const stripeCard: CardSummary = { ...chipCard, inputMode: 'MagStripe', chip: false };
const start: VoidState = {
  name: 'started',
  data: {
    merchantOrderId: '263260010000001',
    merchantVoidId: '263260010000001',
    amount: 500,
    authorizedBy: 'supervisor-token',
    sale: {
      id: 1,
      merchantOrderId: '263260010000000',
      paymentId: 'p-1',
      amount: 1000,
      method: 'credit',
      card: chipCard,
    },
  },
};

function run(inputs: VoidInput[], state: VoidState = start) {
  const names: string[] = [state.name];
  const effects: string[] = [];
  for (const i of inputs) {
    const s = voidTransition(state, i);
    if (!s.ok) throw new Error(s.reason);
    state = s.state;
    names.push(state.name);
    effects.push(...s.effects.map((e) => (e.kind === 'outbox.void-undo' ? `${e.kind}:${e.by}` : e.kind)));
  }
  return { state, names, effects };
}

const send: VoidInput = { kind: 'send', at: '2026-11-22T13:00:00.000Z' };
const answer = (outcome: HostVoidOutcome): VoidInput => ({ kind: 'host-answer', outcome });
const done: VoidInput = { kind: 'delivered', action: 'done', reason: 'ok' };

describe('card void machine', () => {
  it('stripe: card read, sent (date journaled), approved, confirmed through the outbox', () => {
    const r = run([{ kind: 'card-read', card: stripeCard }, send, answer({ kind: 'approved', voidId: 'v-1' }), done]);
    expect(r.names).toEqual(['started', 'card-read', 'voiding', 'confirming', 'confirmed']);
    expect(r.effects).toEqual(['acquirer.void', 'pinpad.end', 'outbox.void-confirm', 'print.void-receipt']);
    expect(r.state.data).toMatchObject({ voidId: 'v-1', sentAt: '2026-11-22T13:00:00.000Z' });
  });

  it('chip: FCX before the confirmation; the card declining after the host approved undoes the void by VoidId', () => {
    const ok = run([
      { kind: 'card-read', card: chipCard },
      send,
      answer({ kind: 'approved', voidId: 'v-1' }),
      { kind: 'chip-finished', card: 'approved', emv: { '9F27': '40' } },
      done,
    ]);
    expect(ok.names).toEqual(['started', 'card-read', 'voiding', 'finishing-chip', 'confirming', 'confirmed']);
    expect(ok.effects).toEqual(['acquirer.void', 'pinpad.finish-chip', 'outbox.void-confirm', 'print.void-receipt']);
    const no = run([
      { kind: 'card-read', card: chipCard },
      send,
      answer({ kind: 'approved', voidId: 'v-1' }),
      { kind: 'chip-finished', card: 'declined' },
      done,
    ]);
    expect(no.names.slice(-2)).toEqual(['undoing', 'undone']);
    expect(no.effects).toContain('outbox.void-undo:voidId');
  });

  it('another card: refused before anything is sent, and the card is told', () => {
    const r = run([{ kind: 'card-mismatch', card: stripeCard, reason: "not the sale's card: masked PAN differs" }]);
    expect(r.state.name).toBe('refused');
    expect(r.effects).toEqual(['pinpad.end']);
    expect(voidTransition(r.state, send).ok).toBe(false);
  });

  it('declined, refused, not sent: final with nothing to deliver; no answer: undo by MerchantVoidId', () => {
    const read = { kind: 'card-read', card: stripeCard } as const;
    expect(run([read, send, answer({ kind: 'declined', returnCode: '05' })]).state).toMatchObject({
      name: 'declined',
      data: { returnCode: '05' },
    });
    expect(run([read, send, answer({ kind: 'refused', status: 400 })]).state.name).toBe('failed');
    expect(run([read, send, answer({ kind: 'not-sent' })]).state.name).toBe('failed');
    const u = run([read, send, answer({ kind: 'unknown', reason: 'timeout' }), done]);
    expect(u.names.slice(-2)).toEqual(['undoing', 'undone']);
    expect(u.effects).toContain('outbox.void-undo:merchantVoidId');
  });

  it('a Pix sale is refunded through the outbox (no card); a card sale cannot take that path', () => {
    const pixSale: VoidState = {
      name: 'started',
      data: {
        ...start.data,
        sale: { kind: 'pix', id: 2, merchantOrderId: 'm', paymentId: 'p', amount: 1000, method: 'pix' },
      },
    };
    const r = run([{ kind: 'refund' }, done], pixSale);
    expect(r.names).toEqual(['started', 'refunding', 'confirmed']);
    expect(r.effects).toEqual(['outbox.pix-refund']);
    expect(voidTransition(start, { kind: 'refund' }).ok).toBe(false);
    const dead = run([{ kind: 'refund' }, { kind: 'delivered', action: 'dead-letter', reason: 'x' }], pixSale);
    expect(dead.state.name).toBe('dead-letter');
    expect(dead.effects.at(-1)).toBe('alarm');
    // Issue 29 defect 3: a refund the provider refused raises an alarm of its own.
    const refused = voidTransition(
      { ...pixSale, name: 'refunding' },
      { kind: 'delivered', action: 'dead-letter', reason: 'ReasonCode 7', refused: true },
    );
    expect(refused.ok && refused.effects).toContainEqual(expect.objectContaining({ code: 'PIX_REFUND_REFUSED' }));
    expect(planVoidRecovery({ ...pixSale, name: 'refunding' })).toEqual({
      kind: 'ensure',
      effects: [{ kind: 'outbox.pix-refund' }],
    });
  });

  it('an undo the host refuses because it confirmed the void (daily close): the void stood, confirmed, with an alarm', () => {
    const r = run([
      { kind: 'card-read', card: stripeCard },
      send,
      answer({ kind: 'unknown', reason: 'timeout' }),
      { kind: 'delivered', action: 'needs-refund', reason: 'the void stands' },
    ]);
    expect(r.names.slice(-2)).toEqual(['undoing', 'confirmed']);
    expect(r.effects.at(-1)).toBe('alarm');
  });

  it('a dead letter raises an alarm', () => {
    const r = run([
      { kind: 'card-read', card: stripeCard },
      send,
      answer({ kind: 'approved', voidId: 'v' }),
      { kind: 'delivered', action: 'dead-letter', reason: 'NOT_ALLOWED' },
    ]);
    expect(r.state.name).toBe('dead-letter');
    expect(r.effects.at(-1)).toBe('alarm');
  });

  it('recovery follows the table: nothing sent → aborted; maybe sent → undo by MerchantVoidId; approved, card open → undo by VoidId; delivering → ensured', () => {
    const at = (name: VoidState['name'], voidId?: string): VoidState => ({
      name,
      data: { ...start.data, ...(voidId ? { voidId } : {}) },
    });
    expect(planVoidRecovery(at('started'))).toMatchObject({ kind: 'transition', to: 'aborted' });
    expect(planVoidRecovery(at('card-read'))).toMatchObject({ kind: 'transition', to: 'aborted' });
    expect(planVoidRecovery(at('voiding'))).toMatchObject({
      kind: 'transition',
      to: 'undoing',
      effects: [{ kind: 'outbox.void-undo', by: 'merchantVoidId' }],
    });
    expect(planVoidRecovery(at('finishing-chip', 'v'))).toMatchObject({
      kind: 'transition',
      to: 'undoing',
      effects: [{ kind: 'outbox.void-undo', by: 'voidId' }],
    });
    expect(planVoidRecovery(at('confirming', 'v'))).toEqual({
      kind: 'ensure',
      effects: [{ kind: 'outbox.void-confirm' }],
    });
    expect(planVoidRecovery(at('undoing'))).toEqual({
      kind: 'ensure',
      effects: [{ kind: 'outbox.void-undo', by: 'merchantVoidId' }],
    });
    for (const s of FINAL_VOID_STATES) expect(planVoidRecovery(at(s))).toEqual({ kind: 'nothing' });
  });

  it('property: any input sequence, card or wallet QR sale — never throws, finals absorb, nothing is sent without a matching card read, a confirm only with a VoidId, one receipt and only once approved', () => {
    const outcome = fc.oneof(
      fc.record({ kind: fc.constant('approved' as const), voidId: fc.constantFrom('v1', 'v2') }),
      fc.record({ kind: fc.constant('declined' as const) }),
      fc.record({ kind: fc.constant('refused' as const), status: fc.constantFrom(400, 404, 422) }),
      fc.constant({ kind: 'not-sent' as const }),
      fc.constant({ kind: 'unknown' as const, reason: 'timeout' }),
    );
    const input: fc.Arbitrary<VoidInput> = fc.oneof(
      fc.constantFrom(chipCard, stripeCard).map((card) => ({ kind: 'card-read' as const, card })),
      fc.constantFrom(chipCard, stripeCard).map((card) => ({ kind: 'card-mismatch' as const, card, reason: 'x' })),
      fc.constant({ kind: 'card-failed' as const, reason: 'x' }),
      fc.constantFrom('ecr', 'customer', 'operator').map((by) => ({ kind: 'cancel' as const, by: by as 'ecr' })),
      fc.constant(send),
      fc.constant({ kind: 'refund' as const }),
      outcome.map((o) => answer(o as HostVoidOutcome)),
      fc
        .constantFrom('approved', 'declined', 'failed')
        .map((card) => ({ kind: 'chip-finished' as const, card: card as 'approved' })),
      fc
        .constantFrom('done', 'dead-letter', 'needs-refund')
        .map((action) => ({ kind: 'delivered' as const, action: action as 'done', reason: 'r' })),
      fc.constant({ kind: 'code-shown' as const, qrCode: 'C', nsu: '000009', expiresAt: '2026-11-22T13:05:00.000Z' }),
      fc.constant({ kind: 'code-failed' as const, reason: 'x' }),
      fc.constantFrom('v7', 'v8').map((voidId) => ({ kind: 'code-applied' as const, voidId })),
      fc.constant({ kind: 'code-expired' as const, until: '2026-11-22T13:05:02.000Z' }),
    );
    const walletStart: VoidState = {
      name: 'started',
      data: {
        ...start.data,
        sale: {
          kind: 'wallet-qr',
          id: 2,
          merchantOrderId: '263260010000002',
          paymentId: 'p-2',
          amount: 1000,
          method: 'credit',
          qrCode: 'Q',
        },
      },
    };
    const seed = Date.now();
    console.log(`void machine property seed ${seed}`);
    fc.assert(
      fc.property(fc.boolean(), fc.array(input, { maxLength: 12 }), (wallet, inputs) => {
        let state = wallet ? walletStart : start;
        let mismatched = false;
        let receipts = 0;
        for (const i of inputs) {
          const s = voidTransition(state, i);
          if (FINAL_VOID_STATES.has(state.name)) expect(s.ok).toBe(false);
          if (!s.ok) continue;
          if (i.kind === 'card-mismatch') mismatched = true;
          for (const e of s.effects) {
            if (e.kind === 'acquirer.void') {
              expect(mismatched).toBe(false);
              expect(s.state.data.card).toBeDefined();
              expect(s.state.data.sentAt).toBeDefined();
            }
            if (e.kind === 'outbox.void-confirm') expect(s.state.data.voidId).toBeDefined();
            if (e.kind === 'print.void-receipt') {
              receipts++;
              expect(['confirming', 'confirmed']).toContain(s.state.name);
              expect(s.state.data.voidId).toBeDefined();
            }
            // A wallet QR void never touches the card or the void API; a card void shows no code.
            if (wallet)
              expect([
                'acquirer.void',
                'pinpad.finish-chip',
                'pinpad.end',
                'outbox.void-confirm',
                'outbox.void-undo',
              ]).not.toContain(e.kind);
            else expect(e.kind).not.toBe('watch.cancellation');
          }
          expect(receipts).toBeLessThanOrEqual(1);
          expect(VOID_STATES).toContain(s.state.name);
          state = s.state;
        }
      }),
      { numRuns: 2000, seed },
    );
  });
});

describe('wallet QR void machine (the cancellation code)', () => {
  const qrStart: VoidState = {
    name: 'started',
    data: {
      ...start.data,
      sale: {
        kind: 'wallet-qr',
        id: 2,
        merchantOrderId: '263260010000002',
        paymentId: 'p-2',
        amount: 1000,
        method: 'credit',
        qrCode: 'Q',
      },
    },
  };
  const shown: VoidInput = { kind: 'code-shown', qrCode: 'C', nsu: '000009', expiresAt: '2026-11-22T13:05:00.000Z' };

  it('shown, then applied by the wallet: confirmed with its VoidId and the receipt printed; nothing for the outbox', () => {
    const r = run([shown, { kind: 'code-applied', voidId: 'v-9' }], qrStart);
    expect(r.names).toEqual(['started', 'showing-code', 'confirmed']);
    expect(r.effects).toEqual(['watch.cancellation', 'print.void-receipt']);
    expect(r.state.data).toMatchObject({ voidId: 'v-9', qrCode: 'C', nsu: '000009' });
  });

  it('ended unpaid on the terminal: not final, the amount held and its watch in the outbox; not applied by then → expired, applied late → confirmed', () => {
    const ended = { kind: 'code-expired' as const, until: '2026-11-22T13:05:02.000Z' };
    const r = run([shown, ended], qrStart);
    expect(r.names).toEqual(['started', 'showing-code', 'expiring']);
    expect(r.effects).toEqual(['watch.cancellation', 'outbox.code-watch']);
    expect(r.state.data.watchedUntil).toBe(ended.until);
    expect(FINAL_VOID_STATES.has('expiring')).toBe(false);
    expect(VOID_HOLDS_AMOUNT.has('expiring')).toBe(true);
    expect(voidStatus('expiring')).toBe('pending');
    expect(planVoidRecovery(r.state)).toEqual({ kind: 'ensure', effects: [{ kind: 'outbox.code-watch' }] });
    const done = run([shown, ended, { kind: 'delivered', action: 'done', reason: 'not applied' }], qrStart);
    expect(done.names.at(-1)).toBe('expired');
    expect(FINAL_VOID_STATES.has('expired')).toBe(true);
    expect(VOID_HOLDS_AMOUNT.has('expired')).toBe(false);
    const late = run(
      [shown, ended, { kind: 'delivered', action: 'done', reason: 'applied', late: true, voidId: 'v-9' }],
      qrStart,
    );
    expect(late.names.at(-1)).toBe('confirmed');
    // Confirmed late as on time: the VoidId in its field, the receipt printed.
    const onTime = run([shown, { kind: 'code-applied', voidId: 'v-9' }], qrStart);
    expect(late.state.data.voidId).toBe(onTime.state.data.voidId);
    expect(late.effects.at(-1)).toBe(onTime.effects.at(-1));
    const dead = run([shown, ended, { kind: 'delivered', action: 'dead-letter', reason: 'x' }], qrStart);
    expect(dead.names.at(-1)).toBe('dead-letter');
    expect(dead.effects.at(-1)).toBe('alarm');
  });

  it('a shown code is never withdrawn by a cancel; a card sale gets no code', () => {
    const showing = run([shown], qrStart).state;
    expect(voidTransition(showing, { kind: 'cancel', by: 'operator' }).ok).toBe(false);
    expect(voidTransition(start, shown).ok).toBe(false);
    expect(run([{ kind: 'code-failed', reason: 'QR_INVALID' }], qrStart).state.name).toBe('failed');
    expect(planVoidRecovery(showing)).toEqual({ kind: 'nothing' });
  });
});
