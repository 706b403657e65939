import { OmniposError } from '../../core/index.js';
import { writeXml } from '../../core/index.js';
import type {
  CardNotPresentBackend,
  CardProduct,
  CnpChangeOutcome,
  CnpHostRules,
  CnpSaleOutcome,
  CnpRecurrenceStatus,
  CnpSaleRequest,
  CnpSaveOutcome,
  CnpTokenSaleRequest,
  SaleQuery,
  TypedCard,
} from '../../engine/index.js';
import { answerOf } from './outcomes.js';
import { changeOutcome, queryOutcome, saleOutcome, type Ws15Exchange } from './outcomes.js';
import { describe } from './answers.js';
import {
  bandeiraOf,
  cancelRequest,
  captureRequest,
  queryByOrderRequest,
  queryRequest,
  tokenRequest,
  transactionRequest,
  type Ws15Credential,
  type Ws15SaleMessage,
} from './messages.js';

/** How a backend reaches the service: one message out, one exchange back (transport.ts, or a test's). */
export type Ws15Post = (message: string, what: string) => Promise<Ws15Exchange>;

export interface Ws15Settings extends Ws15Credential {
  /** `dados-pedido.soft-descriptor`, up to 13 letters or digits (ws15:381). */
  softDescriptor?: string;
  now?: () => Date;
}

/** A sale by a saved token (ws15:1026-1057): the port's, and whether it is recurrent (`autorizar` 4). */
export interface Ws15TokenSaleOptions {
  recurrent?: boolean;
}

function notOffered(what: string): OmniposError {
  return new OmniposError('CNP_NOT_OFFERED', `the webservice 1.5 offers no ${what}`);
}

function refuseDebit(method: CnpSaleRequest['method']): void {
  if (method === 'debit')
    throw new OmniposError(
      'CNP_DEBIT_NEEDS_AUTHENTICATION',
      'debit through the webservice 1.5 needs the cardholder to authenticate at the issuer in a browser (ws15:1166, 851); sell it as credit or with the card present',
    );
}

function bandeira(brand: string): string {
  const b = bandeiraOf(brand);
  if (!b)
    throw new OmniposError('INVALID_ARGUMENT', `the webservice 1.5 knows no brand "${brand}" (ws15:389)`, {
      outcomeUnknown: false,
    });
  return b;
}

/** The webservice 1.5 manual's rules for a pre-authorization's captures and cancellations. */
export const WS15_RULES: CnpHostRules = {
  captureDeadlineDays: 5,
  partialCaptureOnce: true,
  partialVoidNeedsCapture: true,
  partialVoidLeavesCaptured: true,
  sources: {
    captureDeadline:
      'ws15:1376 "O prazo máximo para realizar a captura posterior é de 5 dias corridos"; ws15:1440 (then cancelled by the service)',
    partialCapture:
      'ws15:1394-1404 (captura total e parcial, at most the authorized amount; only a status 4 is captured)',
    partialVoid: 'ws15:1458 (the partial cancellation only of a captured transaction)',
    partialVoidLeaves:
      'ws15:1460 (a partial cancellation leaves it 6; the whole "altera o status da transação para 9")',
  },
};

/** The XML webservice 1.5 as the card-not-present backend: credit sales typed on the pinpad, captures, cancellations, tokens. */
export class Webservice15CardNotPresent implements CardNotPresentBackend {
  readonly kind = 'webservice15';
  readonly rules = WS15_RULES;
  /** Its recurrent sale (`autorizar` 4) is the store's own: the service schedules nothing (ws15:857-898). */
  readonly schedulesRecurrences = false;
  /** The same card gives the same token (ws15:987; seed 001, "Token rules" 2). */
  readonly tokenPerCard = true;
  readonly #post: Ws15Post;
  readonly #s: Ws15Settings;

  constructor(post: Ws15Post, settings: Ws15Settings) {
    this.#post = post;
    this.#s = settings;
  }

  #message(r: {
    merchantOrderId: string;
    amountCents: number;
    capture: boolean;
  }): Omit<Ws15SaleMessage, 'payer' | 'mode' | 'bandeira' | 'installments'> {
    return {
      orderNumber: r.merchantOrderId,
      amountCents: r.amountCents,
      capture: r.capture,
      at: (this.#s.now ?? (() => new Date()))(),
      ...(this.#s.softDescriptor ? { softDescriptor: this.#s.softDescriptor } : {}),
    };
  }

  /**
   * Direct authorization with the card (`autorizar` 3, ws15:845-856); never repeated. `saveCard`
   * asks `gerar-token` (ws15:1130-1145) and answers the token the transaction carries. The host
   * schedules no recurrence (its recurrent sale, `autorizar` 4, is the store's own: `saleByToken`).
   */
  async sale(r: CnpSaleRequest): Promise<CnpSaleOutcome> {
    refuseDebit(r.method);
    if (r.recurrence) throw notOffered('recurrence scheduled by the host; sell by token with autorizar 4 instead');
    const m: Ws15SaleMessage = {
      ...this.#message(r),
      installments: r.installments,
      mode: 3,
      bandeira: bandeira(r.card.brand),
      payer: { card: r.card },
      ...(r.saveCard ? { makeToken: true } : {}),
    };
    const ex = await this.#post(writeXml(transactionRequest(this.#s, m)), 'requisicao-transacao');
    const outcome = saleOutcome(ex, r.capture);
    const a = answerOf(ex);
    const token = a.kind === 'transacao' && a.token?.unlocked ? a.token.code : undefined;
    return token && r.saveCard ? { ...outcome, cardToken: token } : outcome;
  }

  /**
   * A sale by token: `autorizar` 3 (credit, ws15:1050-1056), or 4 when recurrent (credit at sight
   * only, ws15:1083-1090); the token must be unblocked (1055).
   */
  async saleByToken(r: CnpTokenSaleRequest, options: Ws15TokenSaleOptions = {}): Promise<CnpSaleOutcome> {
    refuseDebit(r.method);
    if (options.recurrent && r.installments !== 1)
      throw notOffered('recurrent sale in installments (ws15:1090: "crédito à vista" only)');
    if (r.recurrence) throw notOffered('recurrence scheduled by the host');
    const m: Ws15SaleMessage = {
      ...this.#message(r),
      installments: r.installments,
      mode: options.recurrent ? 4 : 3,
      bandeira: bandeira(r.saved.brand),
      payer: { token: r.saved.token },
    };
    return saleOutcome(await this.#post(writeXml(transactionRequest(this.#s, m)), 'requisicao-transacao'), r.capture);
  }

  /**
   * `requisicao-token` (ws15:967-1024): the same card gives the same token (ws15:987); a token the
   * host answers blocked (`status` 0, ws15:1022) cannot sell and is refused.
   */
  async saveCard(card: TypedCard): Promise<CnpSaveOutcome> {
    const a = answerOf(await this.#post(writeXml(tokenRequest(this.#s, card)), 'requisicao-token'));
    if (a.kind === 'transport')
      return a.failure === 'not-sent'
        ? { kind: 'refused', detail: 'not sent' }
        : { kind: 'unknown', detail: `transport ${a.failure}` };
    if (a.kind === 'token' && !a.token.unlocked) return { kind: 'refused', detail: describe(a) };
    if (a.kind === 'token')
      return {
        kind: 'saved',
        token: a.token.code,
        maskedNumber: a.token.truncatedNumber,
        brand: card.brand,
        detail: describe(a),
      };
    if (a.kind === 'erro' && a.row?.meaning === 'refused')
      return { kind: 'refused', code: a.row.code, detail: describe(a) };
    return { kind: 'unknown', detail: a.kind === 'bad' ? a.reason : describe(a) };
  }

  /** The webservice 1.5 schedules no recurrence (its messages: ws15:263-269). */
  recurrence(_id: string): Promise<CnpRecurrenceStatus> {
    return Promise.reject(notOffered('recurrence scheduled by the host'));
  }

  /** Whole (no amount) or partial capture; 6 is what it leads to (ws15:1396-1403). */
  async capture(tid: string, amountCents?: number): Promise<CnpChangeOutcome> {
    return changeOutcome(await this.#post(writeXml(captureRequest(this.#s, tid, amountCents)), 'requisicao-captura'), [
      'approved',
    ]);
  }

  /** Whole: 9; partial: the transaction stays 6 (ws15:1460). */
  async void(tid: string, amountCents?: number): Promise<CnpChangeOutcome> {
    const ex = await this.#post(writeXml(cancelRequest(this.#s, tid, amountCents)), 'requisicao-cancelamento');
    return changeOutcome(ex, amountCents === undefined ? ['undone'] : ['undone', 'approved']);
  }

  async query(tid: string): Promise<SaleQuery> {
    return queryOutcome(await this.#post(writeXml(queryRequest(this.#s, tid)), 'requisicao-consulta'));
  }

  /** `requisicao-consulta-chsec`: the newest transaction under the order number (ws15:1338). */
  async queryByOrderId(merchantOrderId: string): Promise<SaleQuery> {
    return queryOutcome(
      await this.#post(writeXml(queryByOrderRequest(this.#s, merchantOrderId)), 'requisicao-consulta-chsec'),
    );
  }

  /** The webservice 1.5 has no BIN lookup (its messages: ws15:263-269, xsd:405-417). */
  cardProduct(_bin: string): Promise<CardProduct> {
    return Promise.reject(
      new OmniposError('CNP_NOT_OFFERED', 'the webservice 1.5 has no BIN lookup; the brand is chosen by the cashier'),
    );
  }
}
