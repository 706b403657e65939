import { describe, expect, it } from 'vitest';
import { readXml, textAt, writeXml, xml, type XmlElement } from '../../../../src/core/index.js';
import { Ws15Host } from '../../../../src/sandbox/webservice15/host.js';
import { TEST_STORE } from '../../../../src/sandbox/webservice15/test-data.js';

/** The host model's rules, one test each, with the manual's line (`ws15:N`, src/sandbox/webservice15/fields.ts). */

const DAY = 86_400_000;
let now = new Date('2026-03-02T15:00:00Z');
const host = (): Ws15Host => new Ws15Host({ now: () => now });

const ec = (key: string = TEST_STORE.key): XmlElement =>
  xml('dados-ec', [xml('numero', TEST_STORE.affiliation), xml('chave', key)]);

interface Sale {
  number?: string;
  token?: string;
  indicador?: string;
  code?: string;
  valor?: string;
  moeda?: string;
  bandeira?: string;
  produto?: string;
  parcelas?: string;
  autorizar?: string;
  capturar?: boolean;
  key?: string;
  order?: string;
  gerarToken?: boolean;
}

function saleXml(s: Sale = {}): string {
  const portador: XmlElement[] = [];
  if (s.number !== '') portador.push(xml('numero', s.number ?? '4012001038443335'), xml('validade', '201805'));
  if (s.number !== '') portador.push(xml('indicador', s.indicador ?? '1'));
  if (s.number !== '' && s.code !== '') portador.push(xml('codigo-seguranca', s.code ?? '123'));
  if (s.token) portador.push(xml('token', s.token));
  return writeXml(
    xml(
      'requisicao-transacao',
      [
        ec(s.key),
        xml('dados-portador', portador),
        xml('dados-pedido', [
          xml('numero', s.order ?? '178148599'),
          xml('valor', s.valor ?? '1000'),
          xml('moeda', s.moeda ?? '986'),
          xml('data-hora', '2026-03-02T12:00:00'),
        ]),
        xml('forma-pagamento', [
          xml('bandeira', s.bandeira ?? 'visa'),
          xml('produto', s.produto ?? '1'),
          xml('parcelas', s.parcelas ?? '1'),
        ]),
        xml('url-retorno', 'null'),
        xml('autorizar', s.autorizar ?? '3'),
        xml('capturar', String(s.capturar ?? false)),
        ...(s.gerarToken ? [xml('gerar-token', 'true')] : []),
      ],
      { id: 'a97ab62a-7956-41ea-b03f-c2e9f612c293', versao: '1.2.1' },
    ),
  );
}

const tidMessage = (root: string, tid: string, valor?: string): string =>
  writeXml(
    xml(root, [xml('tid', tid), ec(), ...(valor !== undefined ? [xml('valor', valor)] : [])], {
      id: '1',
      versao: '1.2.1',
    }),
  );

const erro = (reply: string): string | undefined => {
  const r = readXml(reply);
  return r.name === 'erro' ? textAt(r, 'codigo') : undefined;
};
const status = (reply: string): string | undefined => textAt(readXml(reply), 'status');
const tidOf = (reply: string): string => textAt(readXml(reply), 'tid') as string;

describe('the sale: credentials, modes and products', () => {
  it.each<[string, Sale, string]>([
    ['a wrong key: erro 2 (ws15:730)', { key: 'x' }, '002'],
    ['autorizar 1 (authentication is not played): erro 11 (ws15:734)', { autorizar: '1' }, '011'],
    ['debit with direct authorization: erro 14 (ws15:737, 851)', { produto: 'A' }, '014'],
    ['debit, recurrent: erro 61 (ws15:765)', { produto: 'A', autorizar: '4' }, '061'],
    ['recurrent in installments: erro 61 (ws15:896)', { produto: '2', parcelas: '3', autorizar: '4' }, '061'],
    ['at sight in 2 installments: erro 12 (ws15:391, 735)', { parcelas: '2' }, '012'],
    ['another currency: erro 11 (ws15:383)', { moeda: '840' }, '011'],
    ['a token and a card: erro 54 (ws15:368, 761)', { token: 'abc' }, '054'],
    ['a token and a card, recurrent: erro 51 (ws15:758)', { token: 'abc', autorizar: '4' }, '051'],
    ['neither card nor token: erro 15 (ws15:738)', { number: '' }, '015'],
    ['neither card nor token, recurrent: erro 61', { number: '', autorizar: '4' }, '061'],
    ['indicador 1 without the code: erro 17 (ws15:366, 740)', { code: '' }, '017'],
    ['a code with indicador 9: erro 18 (ws15:741)', { indicador: '9' }, '018'],
    [
      'Amex without the code: erro 17 (ws15:740)',
      { number: '376449047333005', bandeira: 'amex', indicador: '9', code: '' },
      '017',
    ],
    ['an unknown token: erro 52 (ws15:759)', { number: '', token: 'bm90LWEtdG9rZW4=' }, '052'],
  ])('%s', (_what, s, code) => {
    expect(erro(host().answer(saleXml(s)))).toBe(code);
  });

  it('the amount chooses: ending in 00 authorizes, anything else is declined (ws15:1530)', () => {
    const h = host();
    expect(status(h.answer(saleXml({ valor: '1500' })))).toBe('4');
    expect(status(h.answer(saleXml({ valor: '1500', capturar: true })))).toBe('6');
    const no = readXml(h.answer(saleXml({ valor: '1501' })));
    expect([textAt(no, 'status'), textAt(no, 'autorizacao', 'codigo')]).toEqual(['5', '5']);
  });

  it('a card outside the test table (ws15:1506-1520) is declined with lr 14 (ws15:626)', () => {
    const r = readXml(host().answer(saleXml({ number: '4111111111111111' })));
    expect([textAt(r, 'status'), textAt(r, 'autorizacao', 'lr')]).toEqual(['5', '14']);
  });

  it('a Visa installment under R$ 5,00 is declined, lr 23 (ws15:393, 631)', () => {
    const r = readXml(host().answer(saleXml({ produto: '2', parcelas: '4', valor: '1600' })));
    expect([textAt(r, 'status'), textAt(r, 'autorizacao', 'lr')]).toEqual(['5', '23']);
  });

  it('answers with the ECI of a direct authorization: 7 for Visa, 0 for Mastercard (ws15:854-855)', () => {
    const h = host();
    expect(textAt(readXml(h.answer(saleXml())), 'autenticacao', 'eci')).toBe('7');
    const mc = { number: '5453010000066167', bandeira: 'mastercard' };
    expect(textAt(readXml(h.answer(saleXml(mc))), 'autenticacao', 'eci')).toBe('0');
  });

  it('never carries the card number in its answer (pan is an encoded reference, ws15:431)', () => {
    expect(host().answer(saleXml())).not.toContain('4012001038443335');
  });
});

describe('tokens', () => {
  const tokenXml = (portador: XmlElement[]): string =>
    writeXml(xml('requisicao-token', [ec(), xml('dados-portador', portador)], { id: '1', versao: '1.2.1' }));

  it('the same card gives the same token (ws15:987), and a sale by it is authorized', () => {
    const h = host();
    const card = [xml('numero', '4012001038443335'), xml('validade', '201805')];
    const a = textAt(readXml(h.answer(tokenXml(card))), 'token', 'dados-token', 'codigo-token');
    const b = textAt(readXml(h.answer(tokenXml(card))), 'token', 'dados-token', 'codigo-token');
    expect(a).toBe(b);
    expect(status(h.answer(saleXml({ number: '', token: a as string })))).toBe('4');
  });

  it('gerar-token answers the token whatever the authorization (ws15:988)', () => {
    const r = readXml(host().answer(saleXml({ valor: '1501', gerarToken: true })));
    expect(textAt(r, 'status')).toBe('5');
    expect(textAt(r, 'token', 'dados-token', 'status')).toBe('1');
  });

  it('without the number: erro 55; without the expiry: erro 56 (ws15:762-763)', () => {
    expect(erro(host().answer(tokenXml([xml('validade', '201805')])))).toBe('055');
    expect(erro(host().answer(tokenXml([xml('numero', '4012001038443335')])))).toBe('056');
  });
});

describe('capture, cancellation, queries', () => {
  it('a capture above the authorized amount: erro 32; of a captured sale: erro 30 (ws15:1399, 747-749)', () => {
    const h = host();
    const tid = tidOf(h.answer(saleXml()));
    expect(erro(h.answer(tidMessage('requisicao-captura', tid, '1100')))).toBe('032');
    expect(status(h.answer(tidMessage('requisicao-captura', tid)))).toBe('6');
    expect(erro(h.answer(tidMessage('requisicao-captura', tid)))).toBe('030');
  });

  it('past 5 days the capture is refused (erro 31) and the service has cancelled it (ws15:1376, 1440)', () => {
    const h = host();
    const tid = tidOf(h.answer(saleXml()));
    now = new Date(now.getTime() + 5 * DAY + 1000);
    expect(erro(h.answer(tidMessage('requisicao-captura', tid)))).toBe('031');
    expect(status(h.answer(tidMessage('requisicao-consulta', tid)))).toBe('9');
  });

  it('a partial cancellation of an uncaptured sale is refused (erro 41, ws15:1458); the whole one makes it 9', () => {
    const h = host();
    const tid = tidOf(h.answer(saleXml()));
    expect(erro(h.answer(tidMessage('requisicao-cancelamento', tid, '500')))).toBe('041');
    expect(status(h.answer(tidMessage('requisicao-cancelamento', tid)))).toBe('9');
    expect(erro(h.answer(tidMessage('requisicao-cancelamento', tid)))).toBe('041');
  });

  it('a partial cancellation leaves it 6 (ws15:1460); more than is left: erro 43 (ws15:757)', () => {
    const h = host();
    const tid = tidOf(h.answer(saleXml({ capturar: true })));
    expect(status(h.answer(tidMessage('requisicao-cancelamento', tid, '400')))).toBe('6');
    expect(erro(h.answer(tidMessage('requisicao-cancelamento', tid, '700')))).toBe('043');
  });

  it('past 300 days a cancellation is refused (erro 40, ws15:1459); past 365 the query finds nothing (ws15:1310)', () => {
    const h = host();
    const tid = tidOf(h.answer(saleXml({ capturar: true })));
    now = new Date(now.getTime() + 301 * DAY);
    expect(erro(h.answer(tidMessage('requisicao-cancelamento', tid)))).toBe('040');
    now = new Date(now.getTime() + 65 * DAY);
    expect(erro(h.answer(tidMessage('requisicao-consulta', tid)))).toBe('003');
  });

  it('the query by order number answers the newest (ws15:1338)', () => {
    const h = host();
    h.answer(saleXml({ order: 'p1' }));
    const newest = tidOf(h.answer(saleXml({ order: 'p1', capturar: true })));
    const q = writeXml(
      xml('requisicao-consulta-chsec', [xml('numero-pedido', 'p1'), ec()], { id: '1', versao: '1.2.1' }),
    );
    expect(tidOf(h.answer(q))).toBe(newest);
  });

  it('requisicao-autorizacao-tid of a transaction never authenticated: erro 20 (ws15:957, 743)', () => {
    const h = host();
    const tid = tidOf(h.answer(saleXml()));
    expect(erro(h.answer(tidMessage('requisicao-autorizacao-tid', tid)))).toBe('020');
  });
});

describe('the ledger (what the chaos run reconciles against)', () => {
  it('each transaction as the host holds it: authorized, captured in part, cancelled in part, declined, lapsed', () => {
    const h = host();
    const held = tidOf(h.answer(saleXml({ order: 'held' })));
    const part = tidOf(h.answer(saleXml({ order: 'part' })));
    h.answer(tidMessage('requisicao-captura', part, '600'));
    h.answer(tidMessage('requisicao-cancelamento', part, '200'));
    h.answer(saleXml({ order: 'no', valor: '1501' }));
    const row = (order: string) => h.ledger().find((r) => r.orderNumber === order);
    expect(row('held')).toMatchObject({ tid: held, amount: 1000, status: 4, captured: 0, charged: 0, held: 1000 });
    expect(row('part')).toMatchObject({ status: 6, captured: 600, cancelled: 200, charged: 400, held: 0 });
    expect(row('no')).toMatchObject({ status: 5, charged: 0, held: 0 });
    // Past the capture deadline the service has cancelled it (ws15:1440), before any message says so.
    now = new Date(now.getTime() + 5 * DAY + 1000);
    expect(row('held')).toMatchObject({ status: 9, held: 0 });
  });
});
