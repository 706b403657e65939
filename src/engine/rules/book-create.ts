import type { HostSaleState } from '../ports.js';
import type { Rule, SaleAnswer, Table } from './vocabulary.js';
import { QR_WATCH } from './book.js';

/**
 * The rulebook's tables for the requests that create money (never repeated automatically): a card
 * sale, a card void, a wallet QR cancellation code, an e-commerce QR code's end, a Pix charge. The
 * answers are the acquirer backend's outcome kinds (src/acquirer/omni/outcomes.ts `saleOutcome`,
 * `voidOutcome`; src/acquirer/omni/pix.ts), each mapped from the host's numbers with its line.
 */

const SALE_STATUS =
  'pt:2515 "Status da transação 0 = Não Finalizado 1 = Autorizado 2 = Pago 3 = Negado 10 = Cancelado 13 = Abortado"';

/**
 * A card sale's answer (`POST /1/physicalSales`). `unclear-decline`: a decline whose answer does
 * not make the denial clear (Status 3 with ReturnCode 99 "Time out", a 4xx whose code reads as
 * success, `[{Code: 0}]`): pt:7330 asks for an undo then; the switch `payments.undoUnclearDeclines`
 * chooses (docs/decisions.md, questions).
 */
export type SaleCreateAnswer =
  'approved' | 'anomaly' | 'declined' | 'unclear-decline' | 'refused' | 'not-sent' | 'unknown';

/**
 * What a sale answer's 2xx body shows, read by the one state table (src/acquirer/omni/states.ts,
 * `OMNI_SALE_STATES`, the same rows every query and confirmation answer is read by), as the sale
 * table's answer. `pending` is Status 0 (not finished): unknown; Status 1 with capture asked is
 * the `anomaly` row (the backend tells it: only the create asks for capture). A create that shows
 * the sale confirmed, undone or cancelled is no answer to what was asked: the undo race (whose
 * query by order id, checked to be ours, decides).
 */
export const SALE_CREATE_SHOWN: { readonly [S in HostSaleState]: SaleCreateAnswer } = {
  approved: 'approved',
  pending: 'unknown',
  declined: 'declined',
  cancelled: 'unknown',
  confirmed: 'unknown',
  undone: 'unknown',
  unknown: 'unknown',
};

export const SALE: Table<SaleCreateAnswer> = {
  approved: {
    decision: 'done',
    why: "approved (Status 2 with a PaymentId): the cash register's decision sends sale.confirm or sale.undo",
    source: `${SALE_STATUS} (2)`,
  },
  anomaly: {
    decision: 'undo',
    why: 'Status 1 although capture was asked: undo it, alarm HOST_ANOMALY',
    source: `${SALE_STATUS} (1)`,
  },
  declined: {
    decision: 'done',
    why: 'denied or aborted: nothing charged (not confirmed: docs/decisions.md question on pt:7573-7584)',
    source: `${SALE_STATUS} (3, 13)`,
  },
  'unclear-decline': {
    decision: 'done',
    why: 'a decline that does not say so clearly (Status 3 with 99 "Time out", a 4xx with Code 0): declined, not undone unless payments.undoUnclearDeclines',
    source: `${SALE_STATUS} (3); pt:7330 "retorno com erro que não deixe claro a negativa"`,
  },
  refused: {
    decision: 'done',
    why: 'a 4xx: the host refused it before processing; nothing charged (no undo: docs/decisions.md question on pt:7330)',
    source:
      'ecom:7402 "Códigos de Erros da API"; pt:7330 (the undo "em casos de timeout ou retorno com erro que não deixe claro a negativa")',
  },
  'not-sent': {
    decision: 'done',
    why: 'the request never left: nothing charged (the order id is never reused)',
    source: 'none: nothing was sent',
  },
  unknown: {
    decision: 'undo',
    why: 'a timeout, a 5xx or 408, or a 2xx without a readable Status: the undo race (sale.undo)',
    source:
      'pt:7330 "Em casos de timeout ou retorno com erro que não deixe claro a negativa da transação deve-se solicitar o desfazimento"',
  },
};

/** The `unclear-decline` row when `payments.undoUnclearDeclines` is on: pt:7330 read literally. */
export const UNCLEAR_DECLINE_UNDONE: Rule = {
  decision: 'undo',
  why: 'payments.undoUnclearDeclines: the sale race undoes it (the cashier sees it declined; it ends undone)',
  source:
    'pt:7330 "Em casos de timeout ou retorno com erro que não deixe claro a negativa da transação deve-se solicitar o desfazimento"',
};

/** The sale table as the terminal's configuration reads it (the one switch: `payments.undoUnclearDeclines`). */
export function saleTable(options: { undoUnclearDeclines?: boolean } = {}): Table<SaleCreateAnswer> {
  return options.undoUnclearDeclines ? { ...SALE, 'unclear-decline': UNCLEAR_DECLINE_UNDONE } : SALE;
}

const CANCELLATION =
  'pt:8111 "Status do cancelamento. 0 = Não Finalizado 1 = Autorizado 2 = Negado 3 = Confirmado 4 = Desfeito"';

/** A card void's answer (`POST /1/physicalSales/{PaymentId}/voids`). */
export type VoidCreateAnswer = 'approved' | 'declined' | 'refused' | 'not-sent' | 'unknown';

export const VOID: Table<VoidCreateAnswer> = {
  approved: {
    decision: 'done',
    why: "approved (CancellationStatus 1, or the English page's Status 10 with ReturnCode 0, with a VoidId): void.confirm once the card agrees, else void.undo",
    source: `${CANCELLATION} (1)`,
  },
  declined: { decision: 'done', why: 'denied: nothing given back', source: `${CANCELLATION} (2)` },
  refused: {
    decision: 'done',
    why: 'the duplicate MerchantVoidId (302) only: undoing by it would undo the other void',
    source: 'ecom:7402 "Códigos de Erros da API" (302)',
  },
  'not-sent': { decision: 'done', why: 'the request never left: nothing given back', source: 'none: nothing was sent' },
  unknown: {
    decision: 'undo',
    why: 'a timeout, a 5xx, any other 4xx (309 is also the answer for a sale this very void voided), an unreadable 2xx: void.undo by MerchantVoidId',
    source: 'pt:7330; docs/decisions.md "The acquirer\'s answers"',
  },
};

/** A wallet QR cancellation code (the void of a wallet QR sale): what the sale's query lists. */
export type WalletCancellationAnswer = 'applied' | 'not-applied';

export const WALLET_CANCELLATION: Table<WalletCancellationAnswer> = {
  applied: {
    decision: 'done',
    why: "the host lists the void under the sale (Payment.Voids[], MerchantVoidId = the code's 62.05): given back",
    source: 'none: no document says how the terminal learns it (docs/decisions.md, homologation)',
  },
  'not-applied': {
    decision: 'watch',
    why: "not applied yet: watch until the code's validity plus a margin ends; then, as for every operation, not applied is never final before the close of that day, and only after the window after it (void.code-watch; the void holds its amount), then expired (nothing given back)",
    source:
      'qr:355 "QRCode expirado"; none: the manual does not say how late a request becomes visible (docs/decisions.md, questions)',
  },
};

/**
 * `qr.watch` of an e-commerce QR sale the terminal stopped showing (cancelled or expired): made
 * with `Capture: true`, it stays `12` until a wallet pays it and its validity at the host is not
 * published, so it is voided at the host first and watched until the host shows it 10.
 */
export const ECOMMERCE_QR_END: Table<SaleAnswer> = {
  ...QR_WATCH,
  'not-found': {
    decision: 'void',
    why: 'Status 12, still payable at the host: void it (PUT /1/sales/{PaymentId}/void), then watch until it shows 10',
    source: 'ecom:2584 "o status inicial é 12 (Pending)"; ecom:1952 PUT /1/sales/{PaymentId}/void; qr:355',
  },
};

/** A Pix charge's creation (`POST /1/sales`, `Payment.Type` Pix). */
export type PixChargeAnswer = 'created' | 'failed' | 'unknown';

export const PIX_CHARGE: Table<PixChargeAnswer> = {
  created: {
    decision: 'watch',
    why: 'PaymentId and QrCodeString: show the code and query until paid (2) or the code ends (then pix.cancel)',
    source: 'ecom:1781-1790 ("12 - Pendente" → "2 - Pago")',
  },
  failed: { decision: 'done', why: 'refused: nothing charged', source: 'ecom:7402 "Códigos de Erros da API"' },
  unknown: {
    decision: 'done',
    why: 'no code was shown, so nobody can pay it: failed (the charge, if made, stays unpaid at the provider)',
    source: 'none: the payer pays only a code the terminal shows',
  },
};
