import type { HostSaleState } from '../../engine/index.js';

/**
 * The e-commerce API's transaction statuses → the engine's words (the same words the e-commerce QR
 * sale's table gives them, src/acquirer/omni/states.ts, so the rulebook's `sale.undo` reads both alike), each row citing the manual
 * (`ecom` = `_i18n/pt/_posts/api-ecommerce-cielo/2003-03-03-cielo-ecommerce.md` in
 * DeveloperCielo/developercielo.github.io, "Status transacional", lines 7367-7379). A status not in
 * the table is `unknown` (queried again, never guessed).
 */
export interface EcommerceStatusRow {
  status: number;
  name: string;
  state: HostSaleState;
  /** Captured: final at the host with no confirmation of its own. */
  captured: boolean;
  source: string;
}

export const ECOMMERCE_STATUSES: readonly EcommerceStatusRow[] = [
  {
    status: 0,
    name: 'NotFinished',
    state: 'pending',
    captured: false,
    source: 'ecom:7371 "Aguardando atualização de status"',
  },
  {
    status: 1,
    name: 'Authorized',
    state: 'pending',
    captured: false,
    source:
      'ecom:7372 "Pagamento apto a ser capturado": a pre-authorization, still voidable (as conecta:2515 "1 = Autorizado", omni/states.ts)',
  },
  {
    status: 2,
    name: 'PaymentConfirmed',
    state: 'approved',
    captured: true,
    source:
      'ecom:7373 "Pagamento confirmado e finalizado": captured, with no confirmation of its own; voided to undo (as the e-commerce QR sale, omni/states.ts)',
  },
  {
    status: 3,
    name: 'Denied',
    state: 'declined',
    captured: false,
    source: 'ecom:7374 "Pagamento negado por Autorizador"',
  },
  {
    status: 10,
    name: 'Voided',
    state: 'undone',
    captured: false,
    source: 'ecom:7375 "Pagamento cancelado": the terminal undoes a sale without the card by voiding it',
  },
  {
    status: 11,
    name: 'Refunded',
    state: 'cancelled',
    captured: false,
    source: 'ecom:7376 "Pagamento cancelado após 23h59 do dia de autorização"',
  },
  {
    status: 12,
    name: 'Pending',
    state: 'pending',
    captured: false,
    source: 'ecom:7377 "Aguardando retorno da instituição financeira"',
  },
  {
    status: 13,
    name: 'Aborted',
    state: 'declined',
    captured: false,
    source: 'ecom:7378 "Pagamento cancelado por falha no processamento ou por ação do Antifraude"',
  },
  {
    status: 20,
    name: 'Scheduled',
    state: 'unknown',
    captured: false,
    source: 'ecom:7379 "Recorrência agendada": a recurrence, never the state of a sale this terminal made',
  },
];

/** The row of a status, or undefined for a status the page does not list. */
export function ecommerceStatus(status: unknown): EcommerceStatusRow | undefined {
  return typeof status === 'number' ? ECOMMERCE_STATUSES.find((r) => r.status === status) : undefined;
}
