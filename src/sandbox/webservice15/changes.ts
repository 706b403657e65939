import { textAt, type XmlElement } from '../../core/index.js';
import { Ws15Refusal } from './erros.js';
import { transacaoReply, type Ws15Transaction } from './replies.js';
import { CANCEL_DAYS, CAPTURE_DAYS, QUERY_DAYS } from './test-data.js';

/**
 * The messages about a transaction already created (`ws15:N` as fields.ts says): query by TID and
 * by order number (ws15:1302-1361), capture (ws15:1363-1434), cancellation (ws15:1436-1494) and the
 * authorization of an authenticated transaction (ws15:940-965), each rule refused with its `erro`.
 */

const DAY_MS = 86_400_000;

/** What these messages read and change of the host (host.ts `Ws15Host`). */
interface Ws15Host {
  now(): Date;
  readonly transactions: Map<string, Ws15Transaction>;
}

/** "após o prazo de captura expirar, ela será cancelada automaticamente pelo sistema" (ws15:1440). */
function settleDeadline(t: Ws15Transaction, now: Date): void {
  if (t.status === 4 && now.getTime() > t.authorization.at.getTime() + CAPTURE_DAYS * DAY_MS) t.status = 9;
}

/** A transaction of this store, within the 365 days a query reaches (ws15:1310), or erro 3. */
function find(host: Ws15Host, tid: string, affiliation: string): Ws15Transaction {
  const t = host.transactions.get(tid);
  const now = host.now();
  if (!t || t.affiliation !== affiliation || now.getTime() - t.createdAt.getTime() > QUERY_DAYS * DAY_MS)
    throw new Ws15Refusal('noTransaction', `tid ${tid}`);
  return t;
}

/** "Caso seja encontrada mais de uma transação para o mesmo número do pedido, a Cielo enviará a transação mais recente" (ws15:1338). */
function newestByOrder(host: Ws15Host, order: string, affiliation: string): Ws15Transaction {
  let newest: Ws15Transaction | undefined;
  for (const t of host.transactions.values()) if (t.affiliation === affiliation && t.orderNumber === order) newest = t;
  if (!newest) throw new Ws15Refusal('noTransaction', `numero-pedido ${order}`);
  return find(host, newest.tid, affiliation);
}

/** Captura total e parcial (ws15:1394-1404). */
function capture(t: Ws15Transaction, root: XmlElement, now: Date): void {
  const was = t.status;
  settleDeadline(t, now);
  if (was === 4 && t.status === 9) throw new Ws15Refusal('captureDeadline', `${CAPTURE_DAYS} days (ws15:1376)`);
  if (t.status !== 4) throw new Ws15Refusal('statusNoCapture', `status ${t.status}`);
  const raw = textAt(root, 'valor');
  // No amount: the whole (ws15:1398); at most the authorized amount (ws15:1399).
  const cents = raw === undefined ? t.amountCents : Number(raw);
  if (cents < 1 || cents > t.amountCents) throw new Ws15Refusal('captureValue', `${cents} of ${t.amountCents}`);
  t.status = 6;
  t.capture = { at: now, cents };
}

/** Cancelamento total e parcial (ws15:1456-1466). */
function cancel(t: Ws15Transaction, root: XmlElement, now: Date): void {
  settleDeadline(t, now);
  if (t.status !== 4 && t.status !== 6) throw new Ws15Refusal('statusNoCancel', `status ${t.status}`);
  if (now.getTime() - t.createdAt.getTime() > CANCEL_DAYS * DAY_MS)
    throw new Ws15Refusal('cancelDeadline', `${CANCEL_DAYS} days (ws15:1459)`);
  const base = t.status === 6 ? (t.capture?.cents ?? t.amountCents) : t.amountCents;
  const left = base - t.cancellations.reduce((s, c) => s + c.cents, 0);
  const raw = textAt(root, 'valor');
  // No amount: the whole (ws15:1462); the partial one only for a captured transaction (ws15:1458).
  if (raw !== undefined && t.status !== 6)
    throw new Ws15Refusal('statusNoCancel', 'partial cancellation of an uncaptured transaction');
  const cents = raw === undefined ? left : Number(raw);
  if (cents < 1) throw new Ws15Refusal('invalidMessage', 'valor: an amount is at least 1 (xsd:157)');
  if (cents > left) throw new Ws15Refusal('cancelValue', `${cents} of ${left}`);
  t.cancellations.push({ at: now, cents });
  // The whole: 9; a part leaves it 6 (ws15:1460), until nothing is left.
  if (cents === left) t.status = 9;
}

/** Every message but the creation and the token (host.ts dispatches). */
export function changeMessage(host: Ws15Host, root: XmlElement, affiliation: string): string {
  const id = root.attributes.id as string;
  const versao = root.attributes.versao as string;
  const now = host.now();
  if (root.name === 'requisicao-consulta-chsec')
    return transacaoReply(newestByOrder(host, textAt(root, 'numero-pedido') as string, affiliation), id, versao);
  const t = find(host, textAt(root, 'tid') as string, affiliation);
  if (root.name === 'requisicao-captura') capture(t, root, now);
  else if (root.name === 'requisicao-cancelamento') cancel(t, root, now);
  // Only a transaction stopped after its authentication may be authorized so (ws15:957): none here.
  else if (root.name === 'requisicao-autorizacao-tid')
    throw new Ws15Refusal('statusNoAuthorization', `status ${t.status}`);
  else settleDeadline(t, now);
  return transacaoReply(t, id, versao);
}
