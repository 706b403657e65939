import type { HostSaleState, PixChargeStatus, VoidAnswer } from '../../engine/index.js';

/**
 * The host's status numbers in the engine's words: the only place they are read for a decision
 * outside the outcome tables (outcomes.ts). Each table is ordered, the first row that matches
 * decides, and every row cites the manual's page and line (the acquirer's manual:
 * developercielo.github.io, `_i18n/pt/_posts/…`; the terminal API is `cielo-conecta.md`, the
 * e-commerce API `cielo-ecommerce.md`). Tested row by row in test/unit/acquirer/omni/states.test.ts.
 */

/** One row: when the host shows these numbers (absent: any), the engine reads `state`. */
export interface StateRow<S> {
  status?: readonly number[];
  confirmationStatus?: readonly number[];
  state: S;
  /** The manual's page and line the row comes from, and why it reads so. */
  source: string;
}

/** The terminal API's page: Payment.Status and Payment.ConfirmationStatus of a sale (query, confirmation, undo answers). */
const CONECTA = 'api-ecommerce-cielo/2019-07-10-cielo-conecta.md';
/** The e-commerce API's page, "Status transacional" (QR code and Pix sales). */
const ECOMMERCE = 'api-ecommerce-cielo/2003-03-03-cielo-ecommerce.md';

/**
 * A terminal sale (`physicalSales`). Status: "0 = Não Finalizado 1 = Autorizado 2 = Pago 3 =
 * Negado 10 = Cancelado 13 = Abortado" (CONECTA:2515, again :7386); ConfirmationStatus: "0 =
 * Pendente 1 = Confirmado 2 = Desfeito" (CONECTA:2513, again :7385). A final Status with nothing
 * charged comes first: a sale denied, aborted or cancelled is so whatever its confirmation says
 * (a sale voided after its confirmation shows Status 10 with ConfirmationStatus 1).
 */
export const OMNI_SALE_STATES: readonly StateRow<HostSaleState>[] = [
  { status: [3], state: 'declined', source: `${CONECTA}:2515 "3 = Negado"` },
  {
    status: [13],
    state: 'declined',
    source: `${CONECTA}:2515 "13 = Abortado"; ${ECOMMERCE}:7378 "Pagamento cancelado por falha no processamento ou por ação do Antifraude": nothing charged`,
  },
  { status: [10], state: 'cancelled', source: `${CONECTA}:2515 "10 = Cancelado" (voided)` },
  { confirmationStatus: [2], state: 'undone', source: `${CONECTA}:2513 "2 = Desfeito"` },
  { confirmationStatus: [1], state: 'confirmed', source: `${CONECTA}:2513 "1 = Confirmado"` },
  { status: [2], state: 'approved', source: `${CONECTA}:2515 "2 = Pago", ConfirmationStatus "0 = Pendente" or absent` },
  { status: [0], state: 'pending', source: `${CONECTA}:2515 "0 = Não Finalizado"` },
  {
    status: [1],
    state: 'pending',
    source: `${CONECTA}:2515 "1 = Autorizado" (not captured: nothing paid yet, it can still be undone)`,
  },
];

/**
 * A QR code sale on the e-commerce API ("Status transacional", ECOMMERCE:7371–7379). 12 (Pending,
 * the code not paid yet) is not a state: the adapter reads it as "not found", nothing to undo.
 * 11 (Refunded: cancelled after the day of its authorization) is nothing charged; 20 (Scheduled,
 * "Recorrência agendada") is a recurrence the terminal never asks for: read as pending, never paid
 * nor "nothing charged" (docs/decisions.md, homologation question 14).
 */
export const ECOMMERCE_QR_SALE_STATES: readonly StateRow<HostSaleState>[] = [
  {
    status: [10],
    state: 'undone',
    source: `${ECOMMERCE}:7375 "10 Voided": the terminal undoes a QR code sale by voiding it (PUT …/void)`,
  },
  { status: [2], state: 'approved', source: `${ECOMMERCE}:7373 "2 PaymentConfirmed" (captured when paid)` },
  { status: [3], state: 'declined', source: `${ECOMMERCE}:7374 "3 Denied"` },
  { status: [13], state: 'declined', source: `${ECOMMERCE}:7378 "13 Aborted"` },
  { status: [0], state: 'pending', source: `${ECOMMERCE}:7371 "0 NotFinished"` },
  { status: [1], state: 'pending', source: `${ECOMMERCE}:7372 "1 Authorized"` },
  {
    status: [11],
    state: 'cancelled',
    source: `${ECOMMERCE}:7376 "11 Refunded" ("Pagamento cancelado após 23h59 do dia de autorização"): nothing charged`,
  },
  {
    status: [20],
    state: 'pending',
    source: `${ECOMMERCE}:7379 "20 Scheduled" ("Recorrência agendada", credit cards and e-wallets): not charged yet and not final; the terminal's QR sale is never a recurrence, so it is voided and watched until the host shows it 10 (homologation)`,
  },
];

/**
 * A void's `CancellationStatus`: "0 = Não Finalizado 1 = Autorizado 2 = Negado 3 = Confirmado 4 =
 * Desfeito" (CONECTA:8111, again :8242, :8526, :8619; the English page's "4 = Reversed", :8659).
 */
export const CANCELLATION_STATES: readonly { cancellationStatus: number; answer: VoidAnswer; source: string }[] = [
  { cancellationStatus: 0, answer: 'not-finished', source: `${CONECTA}:8111 "0 = Não Finalizado"` },
  { cancellationStatus: 1, answer: 'authorized', source: `${CONECTA}:8111 "1 = Autorizado"` },
  { cancellationStatus: 2, answer: 'denied', source: `${CONECTA}:8111 "2 = Negado"` },
  { cancellationStatus: 3, answer: 'confirmed', source: `${CONECTA}:8111 "3 = Confirmado"` },
  { cancellationStatus: 4, answer: 'undone', source: `${CONECTA}:8111 "4 = Desfeito"` },
];

/** A void's state (CANCELLATION_STATES); `unknown` when absent or unlisted. */
export function voidAnswer(cancellationStatus: number | undefined): VoidAnswer {
  return CANCELLATION_STATES.find((r) => r.cancellationStatus === cancellationStatus)?.answer ?? 'unknown';
}

/**
 * A Pix charge on the e-commerce API: its life cycle (ECOMMERCE:1781–1790: "12 - Pendente" when
 * made, "2 - Pago", "11 - Estornado" once the refund is confirmed) and "Status transacional"
 * (ECOMMERCE:7375 "10 Voided": a charge cancelled before payment). 12 after a refund was asked is
 * the refund pending: the engine's task knows which (`refundAsked`).
 */
export const ECOMMERCE_PIX_STATES: readonly StateRow<PixChargeStatus>[] = [
  { status: [12], state: 'pending', source: `${ECOMMERCE}:1783 "12 - Pendente"; ${ECOMMERCE}:7377 "12 Pending"` },
  { status: [2], state: 'paid', source: `${ECOMMERCE}:1784 "2 - Pago"; ${ECOMMERCE}:7373 "2 PaymentConfirmed"` },
  { status: [10], state: 'cancelled', source: `${ECOMMERCE}:7375 "10 Voided"` },
  { status: [11], state: 'refunded', source: `${ECOMMERCE}:1789 "11 - Estornado"; ${ECOMMERCE}:7376 "11 Refunded"` },
  {
    status: [0],
    state: 'pending',
    source: `${ECOMMERCE}:7371 "0 NotFinished" (Todos: "Aguardando atualização de status"): not paid yet, not final`,
  },
  {
    status: [1],
    state: 'pending',
    source: `${ECOMMERCE}:7372 "1 Authorized" (Todos: "Pagamento apto a ser capturado ou definido como pago"): not paid yet, not final`,
  },
  {
    status: [13],
    state: 'cancelled',
    source: `${ECOMMERCE}:7378 "13 Aborted" (Todos: "Pagamento cancelado por falha no processamento ou por ação do Antifraude"): cancelled, as 10 "Pagamento cancelado" (ecom:7375)`,
  },
];

const has = (list: readonly number[] | undefined, v: number | undefined): boolean =>
  list === undefined || (v !== undefined && list.includes(v));

/** The first row matching the host's numbers, or undefined. */
export function matchRow<S>(
  table: readonly StateRow<S>[],
  shown: { status?: number | undefined; confirmationStatus?: number | undefined },
): StateRow<S> | undefined {
  return table.find((r) => has(r.status, shown.status) && has(r.confirmationStatus, shown.confirmationStatus));
}

/** What the host showed, in its words, for reasons and logs. */
export function shownDetail(shown: { status?: number | undefined; confirmationStatus?: number | undefined }): string {
  const parts = [
    ...(shown.status !== undefined ? [`Status ${shown.status}`] : []),
    ...(shown.confirmationStatus !== undefined ? [`ConfirmationStatus ${shown.confirmationStatus}`] : []),
  ];
  return parts.length > 0 ? parts.join(', ') : 'no Status';
}

/** A terminal sale's state (OMNI_SALE_STATES); `unknown` when no row matches. */
export function omniSaleState(shown: {
  status?: number | undefined;
  confirmationStatus?: number | undefined;
}): HostSaleState {
  return matchRow(OMNI_SALE_STATES, shown)?.state ?? 'unknown';
}

/** An e-commerce QR code sale's state (ECOMMERCE_QR_SALE_STATES; 12 is handled before: not found). */
export function ecommerceQrSaleState(status: number): HostSaleState {
  return matchRow(ECOMMERCE_QR_SALE_STATES, { status })?.state ?? 'unknown';
}

/** A Pix charge's status (ECOMMERCE_PIX_STATES); `unknown` when no row matches. */
export function pixChargeStatus(status: number): PixChargeStatus {
  return matchRow(ECOMMERCE_PIX_STATES, { status })?.state ?? 'unknown';
}
