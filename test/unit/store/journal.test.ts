import { describe, expect, it } from 'vitest';
import { Journal, Outbox } from '../../../src/store/index.js';
import { useTempStores } from '../../helpers/store.js';

const tempStore = useTempStores();
const at = new Date('2026-11-22T13:00:00.000Z');

function store() {
  const db = tempStore();
  return { db, journal: new Journal(db), outbox: new Outbox(db) };
}

describe('journal', () => {
  it('records every transition in order and merges data', () => {
    const { db, journal } = store();
    const e = journal.open({
      kind: 'sale',
      merchantOrderId: '263260010360003',
      state: 'started',
      amount: 1010,
      input: 'request',
      at,
    });
    journal.transition(e.id, {
      from: 'started',
      to: 'card-read',
      input: 'card',
      at,
      data: { maskedPan: '40123456****8909' },
    });
    const after = journal.transition(e.id, {
      from: 'card-read',
      to: 'authorizing',
      input: 'send',
      at,
      data: { nsu: '000001' },
    });
    expect(after.state).toBe('authorizing');
    expect(after.data).toEqual({ maskedPan: '40123456****8909', nsu: '000001' });
    expect(journal.transitions(e.id).map((t) => [t.from, t.to])).toEqual([
      [null, 'started'],
      ['started', 'card-read'],
      ['card-read', 'authorizing'],
    ]);
    expect(journal.inStates(['authorizing']).map((x) => x.id)).toEqual([e.id]);
    expect(journal.byMerchantOrderId('263260010360003')?.id).toBe(e.id);
    db.close();
  });

  it('refuses a transition from a state the entry has left, changing nothing', () => {
    const { db, journal } = store();
    const e = journal.open({ kind: 'sale', merchantOrderId: '1', state: 'started', amount: 1, input: 'request', at });
    journal.transition(e.id, { from: 'started', to: 'aborted', input: 'cancel', at });
    expect(() => journal.transition(e.id, { from: 'started', to: 'authorizing', input: 'send', at })).toThrow(
      expect.objectContaining({ code: 'STORE_CONFLICT' }),
    );
    expect(journal.get(e.id)?.state).toBe('aborted');
    expect(journal.transitions(e.id)).toHaveLength(2);
    db.close();
  });

  it('refuses a MerchantOrderId already in the journal', () => {
    const { db, journal } = store();
    journal.open({ kind: 'sale', merchantOrderId: '7', state: 'started', amount: 1, input: 'request', at });
    expect(() =>
      journal.open({ kind: 'void', merchantOrderId: '7', state: 'started', amount: 1, input: 'request', at }),
    ).toThrow(expect.objectContaining({ code: 'STORE_CONFLICT' }));
    db.close();
  });

  it('refuses card data before writing anything: sensitive keys at any depth and PANs in strings', () => {
    const { db, journal, outbox } = store();
    expect(() =>
      journal.open({
        kind: 'sale',
        merchantOrderId: '8',
        state: 'started',
        amount: 1,
        input: 'x',
        at,
        data: { card: { TrackTwoData: 'AB' } },
      }),
    ).toThrow(
      expect.objectContaining({
        code: 'STORE_SENSITIVE_DATA',
        message: 'journal.data.card.TrackTwoData: sensitive data may not be stored',
      }),
    );
    expect(journal.byMerchantOrderId('8')).toBeUndefined();
    const e = journal.open({ kind: 'sale', merchantOrderId: '9', state: 'started', amount: 1, input: 'x', at });
    expect(() =>
      journal.transition(e.id, { from: 'started', to: 'x', input: 'x', at, data: { note: 'pan 4012345678909' } }),
    ).toThrow(expect.objectContaining({ code: 'STORE_SENSITIVE_DATA' }));
    expect(journal.get(e.id)?.state).toBe('started');
    expect(() => outbox.enqueue({ operation: 'undo', idempotencyKey: 'k', payload: { PinBlock: 'X' }, at })).toThrow(
      expect.objectContaining({ code: 'STORE_SENSITIVE_DATA' }),
    );
    expect(outbox.byKey('k')).toBeUndefined();
    db.close();
  });
});

describe('identifiers are not card numbers', () => {
  it('stores and logs a Luhn-valid MerchantOrderId under its own key', async () => {
    // 263260010360008 passes Luhn, as one MerchantOrderId in ten does.
    const { db, journal, outbox } = store();
    const id = '263260010360008';
    const e = journal.open({
      kind: 'sale',
      merchantOrderId: id,
      state: 'started',
      amount: 1,
      input: 'x',
      at,
      data: { merchantOrderId: id },
    });
    expect(e.data.merchantOrderId).toBe(id);
    expect(
      outbox.enqueue({ operation: 'undo', idempotencyKey: `undo:${id}`, payload: { merchantOrderId: id }, at }).payload,
    ).toEqual({ merchantOrderId: id });
    expect(() =>
      journal.transition(e.id, {
        from: 'started',
        to: 'x',
        input: 'x',
        at,
        data: { merchantOrderId: '4111111111111111' },
      }),
    ).toThrow(expect.objectContaining({ code: 'STORE_SENSITIVE_DATA' }));
    const { captureLogger } = await import('../../helpers/capture-log.js');
    const { log, output } = captureLogger();
    log.info({ merchantOrderId: id, note: `free text ${id}` }, 'sale');
    expect(output()).toContain(`"merchantOrderId":"${id}"`);
    expect(output()).toContain('free text 263260*****0008');
    db.close();
  });
});

describe('UUIDs are identifiers too', () => {
  it('keeps a PaymentId whose digit groups look like a dashed Luhn-valid PAN', async () => {
    // 40128888-8888-1881-... : the dashed run 4012 8888 8888 1881 is a published Visa test number.
    const paymentId = '40128888-8888-1881-1234-567890123456';
    const { db, outbox } = store();
    expect(outbox.enqueue({ operation: 'undo', idempotencyKey: 'undo:u', payload: { paymentId }, at }).payload).toEqual(
      { paymentId },
    );
    expect(() =>
      outbox.enqueue({ operation: 'undo', idempotencyKey: 'undo:v', payload: { note: `x ${paymentId}` }, at }),
    ).toThrow(expect.objectContaining({ code: 'STORE_SENSITIVE_DATA' }));
    const { captureLogger } = await import('../../helpers/capture-log.js');
    const { log, output } = captureLogger();
    log.info({ paymentId }, 'undo');
    expect(output()).toContain(paymentId);
    db.close();
  });
});

describe('QR payloads are not card numbers', () => {
  it('keeps a QR payload whose digit runs pass Luhn, under qrCode only', () => {
    // A merchant name (59) holding a Luhn-valid 16-digit run, set apart by spaces.
    const qr = '0002010102125925LOJA 4111111111111111 XYZ6304ABCD';
    const { db, journal } = store();
    expect(
      journal.open({
        kind: 'qr',
        merchantOrderId: '5',
        state: 'showing',
        amount: 1000,
        input: 'x',
        at,
        data: { qrCode: qr },
      }).data.qrCode,
    ).toBe(qr);
    expect(() =>
      journal.open({
        kind: 'qr',
        merchantOrderId: '6',
        state: 'showing',
        amount: 1000,
        input: 'x',
        at,
        data: { note: qr },
      }),
    ).toThrow(expect.objectContaining({ code: 'STORE_SENSITIVE_DATA' }));
    db.close();
  });
});
