import { readXml, textAt, child, XmlSyntaxError, type XmlElement } from '../../core/index.js';
import { ws15Error, ws15Status, type Ws15ErrorRow, type Ws15StatusRow } from './codes.js';

/**
 * The webservice 1.5's three answers (ws15:415-423: `<transacao>`, `<retorno-token>`, `<erro>`)
 * read into plain values, or `bad` when the body is not one of them. Pure.
 */
export type Ws15Answer =
  | {
      kind: 'transacao';
      tid: string;
      /** The status as written, and its row when the manual's table has it. */
      status: string;
      row?: Ws15StatusRow;
      /** `autorizacao.lr`, `arp`, `valor` (ws15:430-460). */
      lr?: string;
      arp?: string;
      authorizedCents?: number;
      /** `captura.valor` (ws15:1427-1433). */
      capturedCents?: number;
      /** The `cancelamentos.cancelamento` amounts (ws15:1486-1490), or the single `cancelamento` (xsd:551). */
      cancelledCents: number[];
      /** `token.dados-token` (ws15:1108-1114, Renova Fácil) or the one `gerar-token` asked for. */
      token?: Ws15Token;
    }
  | { kind: 'token'; token: Ws15Token }
  | { kind: 'erro'; code: string; message: string; row?: Ws15ErrorRow }
  | { kind: 'bad'; reason: string };

/** `dados-token` (ws15:1003-1024): `status` 0 blocked, 1 unblocked. */
export interface Ws15Token {
  code: string;
  unlocked: boolean;
  truncatedNumber: string;
}

function cents(raw: string | undefined): number | undefined {
  return raw !== undefined && /^[0-9]{1,12}$/.test(raw) ? Number(raw) : undefined;
}

function tokenOf(e: XmlElement | undefined): Ws15Token | undefined {
  const d = child(e, 'dados-token');
  const code = textAt(d, 'codigo-token');
  const status = textAt(d, 'status');
  if (!code || (status !== '0' && status !== '1')) return undefined;
  return { code, unlocked: status === '1', truncatedNumber: textAt(d, 'numero-cartao-truncado') ?? '' };
}

function transacao(root: XmlElement): Ws15Answer {
  const tid = textAt(root, 'tid');
  const status = textAt(root, 'status');
  if (!tid || status === undefined) return { kind: 'bad', reason: 'transacao without tid or status' };
  const row = ws15Status(status);
  const cancellations = [
    ...(child(root, 'cancelamentos')?.children.filter((c) => c.name === 'cancelamento') ?? []),
    ...root.children.filter((c) => c.name === 'cancelamento'),
  ];
  const lr = textAt(root, 'autorizacao', 'lr');
  const arp = textAt(root, 'autorizacao', 'arp');
  const authorizedCents = cents(textAt(root, 'autorizacao', 'valor'));
  const capturedCents = cents(textAt(root, 'captura', 'valor'));
  const token = tokenOf(child(root, 'token'));
  return {
    kind: 'transacao',
    tid,
    status,
    ...(row ? { row } : {}),
    ...(lr ? { lr } : {}),
    ...(arp ? { arp } : {}),
    ...(authorizedCents !== undefined ? { authorizedCents } : {}),
    ...(capturedCents !== undefined ? { capturedCents } : {}),
    cancelledCents: cancellations.map((c) => cents(textAt(c, 'valor')) ?? 0),
    ...(token ? { token } : {}),
  };
}

/** Reads an answer's text (already decoded from ISO-8859-1). */
export function readAnswer(text: string): Ws15Answer {
  let root: XmlElement;
  try {
    root = readXml(text);
  } catch (e) {
    if (e instanceof XmlSyntaxError) return { kind: 'bad', reason: `not XML: ${e.message}` };
    throw e;
  }
  if (root.name === 'transacao') return transacao(root);
  if (root.name === 'retorno-token') {
    const token = tokenOf(child(root, 'token'));
    return token ? { kind: 'token', token } : { kind: 'bad', reason: 'retorno-token without dados-token' };
  }
  if (root.name === 'erro') {
    const code = textAt(root, 'codigo') ?? '';
    const row = ws15Error(code);
    return { kind: 'erro', code, message: textAt(root, 'mensagem') ?? '', ...(row ? { row } : {}) };
  }
  return { kind: 'bad', reason: `unexpected root <${root.name}>` };
}

/**
 * For people and logs: the host's own terms, never the card. Not the TID: the row keeps it as its
 * `paymentId`, and in free text its digits before a letter can read as a card number (the manual's own
 * 10069930690360EF1001), which the journal refuses to hold.
 */
export function describe(a: Ws15Answer): string {
  switch (a.kind) {
    case 'transacao':
      return [
        `status ${a.status}${a.row ? ` ${a.row.name}` : ' (not in the manual)'}`,
        a.lr !== undefined ? `lr ${a.lr}` : undefined,
      ]
        .filter((x) => x !== undefined)
        .join(', ');
    case 'token':
      return `token ${a.token.unlocked ? 'unlocked' : 'locked'} for ${a.token.truncatedNumber}`;
    case 'erro':
      return `erro ${a.code}${a.row ? ` ${a.row.message}` : ' (not in the manual)'}: ${a.message}`;
    case 'bad':
      return a.reason;
  }
}
