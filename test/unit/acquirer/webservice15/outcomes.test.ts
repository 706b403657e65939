import { describe, expect, it } from 'vitest';
import {
  changeOutcome,
  queryOutcome,
  saleOutcome,
  type Ws15Exchange,
} from '../../../../src/acquirer/webservice15/outcomes.js';
import { WS15_ERRORS, WS15_STATUSES } from '../../../../src/acquirer/webservice15/codes.js';
import type { CnpSaleAnswer } from '../../../../src/engine/index.js';

/** The webservice 1.5's answers → the rulebook's words, row by row (`ws15:N`, codes.ts). */

const ok = (text: string, status = 200): Ws15Exchange => ({ kind: 'answer', status, text });
const tx = (status: string, extra = ''): Ws15Exchange =>
  ok(
    `<transacao xmlns="http://ecommerce.cbmp.com.br" versao="1.2.1" id="1"><tid>10069930690864281001</tid><pan>x</pan><status>${status}</status>${extra}</transacao>`,
  );
const erro = (code: string): Ws15Exchange => ok(`<erro><codigo>${code}</codigo><mensagem>m</mensagem></erro>`);

describe('saleOutcome', () => {
  it.each<[string, Ws15Exchange, boolean, CnpSaleAnswer]>([
    ['6 with capture asked', tx('6'), true, 'approved'],
    ['4 without capture: a pre-authorization', tx('4'), false, 'approved'],
    ['4 although capture was asked', tx('4'), true, 'anomaly'],
    ['6 although capture was not asked', tx('6'), false, 'anomaly'],
    ['5 not authorized', tx('5'), true, 'declined'],
    ['0, 1, 2, 3, 10: still in progress', tx('1'), true, 'unknown'],
    ['12 in cancellation', tx('12'), true, 'unknown'],
    ["7: in the schema, not in the manual's table", tx('7'), true, 'unknown'],
    ['erro 001: refused, nothing created', erro('001'), true, 'refused'],
    ['erro 017: refused', erro('017'), true, 'refused'],
    ['erro 097, system unavailable: unknown', erro('097'), true, 'unknown'],
    ['erro 099, unexpected: unknown', erro('099'), true, 'unknown'],
    ['an unpublished erro code: unknown', erro('123'), true, 'unknown'],
    ['not XML, whatever the HTTP status', ok('<html>502</html', 502), true, 'unknown'],
    ['another root', ok('<retorno-tid><tid>1</tid></retorno-tid>'), true, 'unknown'],
    ['not sent', { kind: 'transport', failure: 'not-sent' }, true, 'not-sent'],
    ['a timeout', { kind: 'transport', failure: 'timeout' }, true, 'unknown'],
  ])('%s', (_what, ex, capture, want) => {
    expect(saleOutcome(ex, capture).answer).toBe(want);
  });

  it('keeps the TID and the arp, never a card', () => {
    const s = saleOutcome(tx('6', '<autorizacao><codigo>6</codigo><lr>00</lr><arp>123456</arp></autorizacao>'), true);
    expect(s).toMatchObject({ paymentId: '10069930690864281001', authorizationCode: '123456', state: 'approved' });
  });
});

describe('changeOutcome and queryOutcome', () => {
  it('a capture is done when the answer shows 6, with the captured amount', () => {
    expect(
      changeOutcome(tx('6', '<captura><codigo>6</codigo><valor>900</valor></captura>'), ['approved']),
    ).toMatchObject({
      kind: 'done',
      capturedCents: 900,
    });
    expect(changeOutcome(tx('4'), ['approved']).kind).toBe('unknown');
    expect(changeOutcome(erro('030'), ['approved'])).toMatchObject({ kind: 'refused', code: 30 });
    expect(changeOutcome(erro('033'), ['approved']).kind).toBe('unknown');
    expect(changeOutcome(erro('475'), ['undone']).kind).toBe('unknown');
  });

  it('a query: erro 3 is not found; a status in the table is found; anything else unknown', () => {
    expect(queryOutcome(erro('003'))).toEqual({ kind: 'not-found' });
    expect(queryOutcome(tx('9'))).toMatchObject({ kind: 'found', state: 'undone', captured: false });
    expect(queryOutcome(tx('6'))).toMatchObject({ kind: 'found', state: 'approved', captured: true });
    expect(queryOutcome(erro('002')).kind).toBe('unknown');
  });

  it('has a row for every status of the manual (ws15:783-792) and every erro of its table (ws15:729-777)', () => {
    expect(WS15_STATUSES.map((r) => r.status)).toEqual([0, 1, 2, 3, 4, 5, 6, 9, 10, 12]);
    expect(WS15_ERRORS).toHaveLength(49);
  });
});
