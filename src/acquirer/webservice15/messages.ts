import { randomUUID } from 'node:crypto';
import { localTime } from '../../core/index.js';
import { xml, type XmlElement } from '../../core/index.js';
import type { TypedCard } from '../../engine/index.js';

/**
 * The webservice 1.5's request messages, as the manual shows them (`ws15:N`: codes.ts says which
 * file). Every root carries `id` (unique per message) and `versao` (ws15:287; the schema's
 * `Mensagem`, xsd:306); every request carries the store's credential in `dados-ec` (ws15:352-357).
 * Pure: the card goes into the message and nowhere else.
 */

/** The version the manual's direct-authorization, token, query and capture examples carry (ws15:817, 970, 1316). */
export const WS15_VERSION = '1.2.1';

export interface Ws15Credential {
  /** `dados-ec.numero`, the affiliation number: 1 to 20 digits (ws15:356). */
  affiliation: string;
  /** `dados-ec.chave`, 1 to 100 characters (ws15:357). */
  key: string;
}

/** `forma-pagamento.bandeira`: the lower-case names (ws15:389); our brand names → theirs. */
const BANDEIRA: Readonly<Record<string, string>> = {
  visa: 'visa',
  master: 'mastercard',
  mastercard: 'mastercard',
  diners: 'diners',
  discover: 'discover',
  elo: 'elo',
  amex: 'amex',
  jcb: 'jcb',
  aura: 'aura',
};

export function bandeiraOf(brand: string): string | undefined {
  return BANDEIRA[brand.toLowerCase()];
}

function root(name: string, children: XmlElement[], id: string = randomUUID()): XmlElement {
  return xml(name, children, { id, versao: WS15_VERSION });
}

function dadosEc(c: Ws15Credential): XmlElement {
  return xml('dados-ec', [xml('numero', c.affiliation), xml('chave', c.key)]);
}

/** `MM/YYYY` → `aaaamm` (ws15:364). */
export function validadeOf(expiry: string): string {
  const m = /^(\d{2})\/(\d{4})$/.exec(expiry);
  return m ? `${m[2]}${m[1]}` : expiry;
}

/** `aaaa-MM-ddTHH24:mm:ss` in the host's time zone (ws15:248, 377). */
export function dataHora(at: Date): string {
  const t = localTime(at);
  const s = Math.floor(t.decisecondsOfDay / 10);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${t.year}-${two(t.month)}-${two(t.day)}T${two(Math.floor(s / 3600))}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`;
}

/** `dados-portador` with the card: `indicador` 1 with the code, 9 ("inexistente") without (ws15:365-366). */
function portadorCard(card: TypedCard): XmlElement {
  return xml('dados-portador', [
    xml('numero', card.number),
    xml('validade', validadeOf(card.expiry)),
    xml('indicador', card.securityCode !== undefined ? '1' : '9'),
    ...(card.securityCode !== undefined ? [xml('codigo-seguranca', card.securityCode)] : []),
    ...(card.holder !== '' ? [xml('nome-portador', card.holder)] : []),
  ]);
}

export interface Ws15SaleMessage {
  orderNumber: string;
  amountCents: number;
  installments: number;
  capture: boolean;
  /** `autorizar` 3, direct (ws15:845-856), or 4, recurrent (ws15:892-898). */
  mode: 3 | 4;
  bandeira: string;
  at: Date;
  /** The card, or a token in its place (never both, ws15:368). */
  payer: { card: TypedCard } | { token: string };
  /** `gerar-token` (ws15:1130-1145). */
  makeToken?: boolean;
  softDescriptor?: string;
}

/**
 * `requisicao-transacao` (ws15:285-333): credit only — `produto` 1 at sight, 2 in store
 * installments (ws15:390); `url-retorno` "null" for a direct authorization (ws15:345).
 */
export function transactionRequest(c: Ws15Credential, m: Ws15SaleMessage, id?: string): XmlElement {
  const portador =
    'card' in m.payer ? portadorCard(m.payer.card) : xml('dados-portador', [xml('token', m.payer.token)]);
  return root(
    'requisicao-transacao',
    [
      dadosEc(c),
      portador,
      xml('dados-pedido', [
        xml('numero', m.orderNumber),
        xml('valor', String(m.amountCents)),
        xml('moeda', '986'),
        xml('data-hora', dataHora(m.at)),
        xml('idioma', 'PT'),
        ...(m.softDescriptor ? [xml('soft-descriptor', m.softDescriptor)] : []),
      ]),
      xml('forma-pagamento', [
        xml('bandeira', m.bandeira),
        xml('produto', m.installments > 1 ? '2' : '1'),
        xml('parcelas', String(m.installments)),
      ]),
      xml('url-retorno', 'null'),
      xml('autorizar', String(m.mode)),
      xml('capturar', m.capture ? 'true' : 'false'),
      ...(m.makeToken ? [xml('gerar-token', 'true')] : []),
    ],
    id,
  );
}

/** `requisicao-captura` (ws15:1382-1393): no `valor` captures the whole (ws15:1398). */
export function captureRequest(c: Ws15Credential, tid: string, amountCents?: number, id?: string): XmlElement {
  return root(
    'requisicao-captura',
    [xml('tid', tid), dadosEc(c), ...(amountCents !== undefined ? [xml('valor', String(amountCents))] : [])],
    id,
  );
}

/** `requisicao-cancelamento` (ws15:1444-1454): no `valor` cancels the whole (ws15:1462). */
export function cancelRequest(c: Ws15Credential, tid: string, amountCents?: number, id?: string): XmlElement {
  return root(
    'requisicao-cancelamento',
    [xml('tid', tid), dadosEc(c), ...(amountCents !== undefined ? [xml('valor', String(amountCents))] : [])],
    id,
  );
}

/** `requisicao-consulta`, by TID (ws15:1306-1331). */
export function queryRequest(c: Ws15Credential, tid: string, id?: string): XmlElement {
  return root('requisicao-consulta', [xml('tid', tid), dadosEc(c)], id);
}

/** `requisicao-consulta-chsec`, by order number: the newest transaction under it (ws15:1333-1361). */
export function queryByOrderRequest(c: Ws15Credential, orderNumber: string, id?: string): XmlElement {
  return root('requisicao-consulta-chsec', [xml('numero-pedido', orderNumber), dadosEc(c)], id);
}

/** `requisicao-token` (ws15:969-982): number, expiry, holder; no security code. */
export function tokenRequest(c: Ws15Credential, card: TypedCard, id?: string): XmlElement {
  return root(
    'requisicao-token',
    [
      dadosEc(c),
      xml('dados-portador', [
        xml('numero', card.number),
        xml('validade', validadeOf(card.expiry)),
        ...(card.holder !== '' ? [xml('nome-portador', card.holder)] : []),
      ]),
    ],
    id,
  );
}
