import type { PixAnswer, RefundAnswer, SaleAnswer, Table, VoidAnswer } from './vocabulary.js';

/**
 * The rulebook: for every money operation the terminal sends, the host's documented answer → what
 * the terminal does, each row citing the acquirer's manual (developercielo.github.io at its head:
 * "pt" = `_i18n/pt/_posts/api-ecommerce-cielo/2019-07-10-cielo-conecta.md`, "ecom" =
 * `…/2003-03-03-cielo-ecommerce.md`, "qr" = `_i18n/pt/_posts/qrcode/2021-10-19-qrcode-v4.md`).
 * The acquirer backend maps the host's numbers to these answers (src/acquirer/omni/states.ts,
 * each mapping with its own line); the outbox's attempts and the backend's outcome tables read
 * their decisions here and nowhere else. docs/decisions.md prints these tables
 * (test/unit/engine/rules/book.test.ts checks it does, row by row).
 *
 * Three rules apply to every table (rules/shared.ts, rules/visibility.ts):
 * - "the host may not show it yet": `not-found` is never final before the close of the
 *   operation's own day, and only after a window counted from that close;
 * - "a 2xx whose body says otherwise": the body decides, never the HTTP status; a body that does
 *   not show a final state is queried;
 * - "an answer we cannot classify": query, never guess.
 */

const SALE_STATUS =
  'pt:2515 "Status da transação 0 = Não Finalizado 1 = Autorizado 2 = Pago 3 = Negado 10 = Cancelado 13 = Abortado"';
const SALE_CONFIRMATION = 'pt:2513 "Status da confirmação. 0 = Pendente 1 = Confirmado 2 = Desfeito"';
const CANCELLATION =
  'pt:8111 "Status do cancelamento. 0 = Não Finalizado 1 = Autorizado 2 = Negado 3 = Confirmado 4 = Desfeito"';
const UNCLASSIFIED = 'none: an answer no documented row reads; query, never guess';
const NOT_FOUND = 'none: the manual does not say how late a request becomes visible (docs/decisions.md, questions)';

/** `sale.confirm`: the confirmation of a sale the host approved (its 2xx body, or the query after it). */
export const CONFIRM: Table<SaleAnswer> = {
  confirmed: { decision: 'done', why: 'confirmed', source: `${SALE_CONFIRMATION} (1)` },
  undone: {
    decision: 'dead-letter',
    why: 'the host undid a sale the terminal approved: the goods were handed over, the merchant is not paid',
    source: `${SALE_CONFIRMATION} (2)`,
  },
  declined: {
    decision: 'dead-letter',
    why: 'the host shows denied or aborted a sale it approved: the goods were handed over, the merchant is not paid',
    source: `${SALE_STATUS} (3, 13)`,
  },
  cancelled: {
    decision: 'dead-letter',
    why: 'the host shows cancelled a sale the terminal approved and never voided: the merchant is not paid',
    source: `${SALE_STATUS} (10)`,
  },
  approved: {
    decision: 'retry',
    why: 'paid, the confirmation still pending: confirm again',
    source: `${SALE_STATUS} (2); ${SALE_CONFIRMATION} (0)`,
  },
  pending: { decision: 'retry', why: 'not finished at the host: confirm again', source: `${SALE_STATUS} (0, 1)` },
  'not-found': {
    decision: 'retry',
    why: 'the host approved it; its query does not show it yet: confirm again',
    source: NOT_FOUND,
  },
  unknown: { decision: 'query', why: 'a state no row reads', source: UNCLASSIFIED },
};

/** `sale.undo`: the undo race of a sale (its 2xx body, or the query by order id). */
export const UNDO: Table<SaleAnswer> = {
  undone: { decision: 'done', why: 'undone: nothing charged', source: `${SALE_CONFIRMATION} (2)` },
  declined: { decision: 'done', why: 'denied or aborted: nothing charged', source: `${SALE_STATUS} (3, 13)` },
  cancelled: { decision: 'done', why: 'cancelled: nothing charged', source: `${SALE_STATUS} (10)` },
  confirmed: {
    decision: 'needs-refund',
    why: 'confirmed at the host (by the terminal or at the daily close): the undo can no longer happen',
    source: `${SALE_CONFIRMATION} (1)`,
  },
  approved: {
    decision: 'undo',
    why: 'paid and not confirmed: undo it by its PaymentId',
    source: `${SALE_STATUS} (2); ${SALE_CONFIRMATION} (0)`,
  },
  pending: {
    decision: 'undo',
    why: 'not finished or authorized: undo it by its PaymentId',
    source: `${SALE_STATUS} (0, 1)`,
  },
  'not-found': { decision: 'visibility', why: 'not shown yet: the sale may still be landing', source: NOT_FOUND },
  unknown: {
    decision: 'undo',
    why: 'unreadable: treated as pending; an undo is safe to repeat, and only a readable state ends the race',
    source: UNCLASSIFIED,
  },
};

/**
 * `qr.watch`: after a wallet (or e-commerce) QR code was cancelled on the terminal or expired, a
 * payment found under its order id (checked to be ours first) is undone.
 */
export const QR_WATCH: Table<SaleAnswer> = {
  ...UNDO,
  'not-found': {
    decision: 'watch',
    why: "no payment yet: watch until the code can no longer be paid; then, as for every operation, not found is never final before the close of that day, and only after the window after it (awaiting the host's close)",
    source: `qr:355 "QRCode expirado" (the code's validity at the host is not published: watched to its end plus a margin); ${NOT_FOUND}`,
  },
};

/** `void.confirm`: the confirmation of an approved void (its 2xx body, or the void's query). */
export const VOID_CONFIRM: Table<VoidAnswer> = {
  confirmed: { decision: 'done', why: 'void confirmed: the money is given back', source: `${CANCELLATION} (3)` },
  authorized: { decision: 'retry', why: 'authorized, not confirmed yet: confirm again', source: `${CANCELLATION} (1)` },
  'not-finished': { decision: 'retry', why: 'not finished: confirm again', source: `${CANCELLATION} (0)` },
  denied: {
    decision: 'dead-letter',
    body: 'query',
    why: "denied: the refund is not in effect (in a confirmation's own body: asked of the void's query)",
    source: `${CANCELLATION} (2)`,
  },
  undone: {
    decision: 'dead-letter',
    body: 'query',
    why: "undone: the refund is not in effect (in a confirmation's own body, as the manual's example shows it beside ConfirmatinoStatus 1: asked of the void's query)",
    source: `${CANCELLATION} (4); pt:8597 "CancellationStatus": 4 in the confirmation's example`,
  },
  'not-found': {
    decision: 'retry',
    why: 'the host approved it; its query does not show it yet: confirm again',
    source: NOT_FOUND,
  },
  unknown: { decision: 'query', why: 'a body no row reads', source: UNCLASSIFIED },
};

/** `void.undo`: the undo of a void whose answer never came, or that the card refused. */
export const VOID_UNDO: Table<VoidAnswer> = {
  undone: { decision: 'done', why: 'void undone: nothing given back', source: `${CANCELLATION} (4)` },
  denied: { decision: 'done', why: 'void denied: nothing to undo', source: `${CANCELLATION} (2)` },
  confirmed: {
    decision: 'needs-refund',
    why: 'the void is confirmed: the refund stands',
    source: `${CANCELLATION} (3)`,
  },
  authorized: { decision: 'undo', why: 'authorized, not confirmed: undo again', source: `${CANCELLATION} (1)` },
  'not-finished': { decision: 'undo', why: 'not finished: undo again', source: `${CANCELLATION} (0)` },
  'not-found': { decision: 'visibility', why: 'not shown yet: the void may still be landing', source: NOT_FOUND },
  unknown: { decision: 'query', why: 'a body no row reads', source: UNCLASSIFIED },
};

const PIX_FLOW = 'ecom:1781-1790 (the Pix life cycle: "12 - Pendente", "2 - Pago", "11 - Estornado")';

/** `pix.cancel`: a Pix charge the cashier cancelled, or whose code ended, before a refund was asked. */
export const PIX_CANCEL: Table<PixAnswer> = {
  pending: { decision: 'void', why: 'not paid: cancel the charge', source: `${PIX_FLOW}; ecom:7377 "12 Pending"` },
  paid: { decision: 'void', why: 'paid after the cancel: ask its refund, once', source: `${PIX_FLOW}; ecom:1788` },
  cancelled: {
    decision: 'watch',
    why: 'cancelled: watch for a late payment until the code ends',
    source: 'ecom:7375 "10 Voided"',
  },
  refunded: { decision: 'done', why: 'refunded', source: 'ecom:1789 "11 - Estornado"' },
  unknown: { decision: 'query', why: 'a status no row reads: query again (bounded)', source: UNCLASSIFIED },
};

/** `pix.refund`, before the refund was asked: a paid Pix the supervisor voids. */
export const PIX_REFUND: Table<PixAnswer> = {
  paid: {
    decision: 'void',
    why: 'paid: ask its refund, once',
    source: `${PIX_FLOW}; ecom:1788 "solicitação da devolução"`,
  },
  pending: { decision: 'void', why: 'not paid: cancel the charge', source: 'ecom:7377 "12 Pending"' },
  cancelled: { decision: 'done', why: 'cancelled: never paid', source: 'ecom:7375 "10 Voided"' },
  refunded: { decision: 'done', why: 'refunded', source: 'ecom:1789 "11 - Estornado"' },
  unknown: { decision: 'query', why: 'a status no row reads: query again (bounded)', source: UNCLASSIFIED },
};

/**
 * A Pix refund once asked (or possibly asked: a crash between the request and its record): never
 * asked again; the charge stays at 2 until the refund is done (ecom:1788, :1927 "a devolução não
 * é uma operação instantânea, podendo ser acatada ou não").
 */
export const PIX_REFUND_ASKED: Table<PixAnswer> = {
  refunded: { decision: 'done', why: 'refunded', source: 'ecom:1789 "11 - Estornado"' },
  paid: {
    decision: 'retry',
    why: 'the refund is in progress: the charge stays 2 until it is done; never ask again',
    source: 'ecom:1788; ecom:1927',
  },
  pending: {
    decision: 'retry',
    why: 'the refund is pending at the provider',
    source: 'ecom:1975 "Status": 12 in the refund\'s answer',
  },
  cancelled: { decision: 'done', why: 'voided: the money is given back', source: 'ecom:7375 "10 Voided"' },
  unknown: { decision: 'query', why: 'a status no row reads: query again (bounded)', source: UNCLASSIFIED },
};

/** The answer to the Pix refund request itself. */
export const PIX_REFUND_REQUEST: Table<RefundAnswer> = {
  accepted: {
    decision: 'retry',
    why: 'refund asked: query until it is refunded',
    source: 'ecom:1975-1979 "Status": 12, "ReasonCode": 0, "Reembolso solicitado com sucesso"',
  },
  refused: {
    decision: 'alarm',
    why: 'the provider refused the refund: the customer is not paid back; an alarm of its own',
    source: 'ecom:1948 "Lojista com saldo insuficiente para devolução"; ecom:2010 ReasonCode "sucesso ou erro"',
  },
  'not-sent': {
    decision: 'void',
    why: 'the request never reached the provider (or our credentials were refused): nothing was asked; ask again',
    source: 'none: a request that never left asks nothing',
  },
  unknown: { decision: 'query', why: 'the refund may have been asked: query, never ask again', source: UNCLASSIFIED },
};
