import { writeXml, xml, type XmlElement } from '../../core/index.js';
import { WS15_NAMESPACE } from './validate.js';

/**
 * The host's answers as the manual prints them: `<transacao>` (ws15:427-464, 540-583),
 * `<retorno-token>` (ws15:1005-1016) and `<erro>` (ws15:484-491), in its namespace.
 */

/** One transaction as the host keeps it. */
export interface Ws15Transaction {
  tid: string;
  affiliation: string;
  orderNumber: string;
  amountCents: number;
  /** The encoded card reference of `pan` (ws15:431): a keyed digest, never the number. */
  pan: string;
  /** `dados-pedido` and `forma-pagamento` as sent ("Idêntico ao nó enviado", ws15:476-477). */
  pedido: XmlElement;
  pagamento: XmlElement;
  bandeira: string;
  status: number;
  createdAt: Date;
  eci: string;
  authorization: { codigo: number; mensagem: string; at: Date; lr?: string; arp?: string; nsu: string };
  capture?: { at: Date; cents: number };
  cancellations: { at: Date; cents: number }[];
  token?: { code: string; truncated: string };
}

/** `aaaa-MM-ddTHH:mm:ss.SSS-03:00`, the shape of the manual's answers (ws15:437), in UTC-3. */
export function hostTime(at: Date): string {
  return `${new Date(at.getTime() - 3 * 3_600_000).toISOString().slice(0, 23)}-03:00`;
}

const step = (name: string, codigo: number, mensagem: string, at: Date, cents: number, extra: XmlElement[] = []) =>
  xml(name, [
    xml('codigo', String(codigo)),
    xml('mensagem', mensagem),
    xml('data-hora', hostTime(at)),
    xml('valor', String(cents)),
    ...extra,
  ]);

export function tokenElement(t: { code: string; truncated: string }): XmlElement {
  return xml('token', [
    xml('dados-token', [xml('codigo-token', t.code), xml('status', '1'), xml('numero-cartao-truncado', t.truncated)]),
  ]);
}

export function transacaoReply(t: Ws15Transaction, id: string, versao: string): string {
  const a = t.authorization;
  const children: XmlElement[] = [
    xml('tid', t.tid),
    xml('pan', t.pan),
    t.pedido,
    t.pagamento,
    xml('status', String(t.status)),
    // "todas as transações passarão pelo status Autenticada ou Não autenticada" (ws15:536-537).
    step('autenticacao', a.codigo, 'Transacao sem autenticacao', t.createdAt, t.amountCents, [xml('eci', t.eci)]),
    step('autorizacao', a.codigo, a.mensagem, a.at, t.amountCents, [
      ...(a.lr !== undefined ? [xml('lr', a.lr)] : []),
      ...(a.arp !== undefined ? [xml('arp', a.arp)] : []),
      xml('nsu', a.nsu),
    ]),
    ...(t.capture ? [step('captura', 6, 'Transacao capturada com sucesso', t.capture.at, t.capture.cents)] : []),
    ...(t.token ? [tokenElement(t.token)] : []),
    ...(t.cancellations.length > 0
      ? [
          xml(
            'cancelamentos',
            t.cancellations.map((c) => step('cancelamento', 9, 'Transacao cancelada com sucesso', c.at, c.cents)),
          ),
        ]
      : []),
  ];
  return writeXml(xml('transacao', children, { versao, id, xmlns: WS15_NAMESPACE }));
}

export function tokenReply(t: { code: string; truncated: string }, id: string, versao: string): string {
  return writeXml(xml('retorno-token', [tokenElement(t)], { versao, id, xmlns: WS15_NAMESPACE }));
}

/** `<erro>` with the three-digit code (`001`, ws15:487) and the message in the manual's words. */
export function erroReply(code: number, message: string): string {
  return writeXml(
    xml('erro', [xml('codigo', String(code).padStart(3, '0')), xml('mensagem', message)], { xmlns: WS15_NAMESPACE }),
  );
}
