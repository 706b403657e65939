import { OmniposError } from '../../core/index.js';
import type { Logger } from '../../core/log/index.js';
import { httpError } from '../errors.js';
import type { AcquirerHttp, AcquirerResponse, SendOptions } from '../http.js';
import type { OmniTokens, ScopeFamily } from '../oauth.js';
import {
  exchangeOf,
  operationOutcome,
  saleOutcome,
  voidOutcome,
  type Operation,
  type OperationOutcome,
  type SaleOutcome,
  type VoidOutcome,
} from './outcomes.js';
import type {
  ConfirmChipData,
  OperationAnswer,
  PhysicalSaleRequest,
  PhysicalSaleResponse,
  UndoChipData,
  VoidAnswer,
  VoidRequest,
} from './types.js';
import { ROUTES, type RouteName, type RouteParams } from './routes.js';

export interface CallOptions {
  /** Overrides the default timeout for this call, ms. */
  timeoutMs?: number;
}

export interface OmniClientOptions {
  http: AcquirerHttp;
  tokens: OmniTokens;
  log: Logger;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * The terminal (omni) API: sales, queries, confirmations, undos, voids, initialization and
 * registration, with the paths of routes.ts. Each call gets a bearer token for its scope and,
 * on a 401, renews the token and sends once more (a 401 means the host did not process it).
 * A non-2xx answer throws ACQUIRER_HTTP / ACQUIRER_AUTH_FAILED; a lost exchange throws
 * ACQUIRER_UNKNOWN_OUTCOME or ACQUIRER_UNREACHABLE; each says in `context.outcomeUnknown`
 * whether the request may have been processed. `authorize`, `settle` and `settleVoid` apply
 * the outcome tables instead of throwing.
 */
export class OmniClient {
  readonly #http: AcquirerHttp;
  readonly #tokens: OmniTokens;
  readonly #log: Logger;

  constructor(options: OmniClientOptions) {
    this.#http = options.http;
    this.#tokens = options.tokens;
    this.#log = options.log;
  }

  /** Sends with a bearer token; renews the token once on a 401. Returns the answer, any status. */
  async raw<N extends RouteName>(
    name: N,
    params: RouteParams<N>,
    options: SendOptions = {},
  ): Promise<AcquirerResponse> {
    const spec = ROUTES[name] as { scope?: ScopeFamily };
    const scope: ScopeFamily = spec.scope ?? 'transactional';
    const token = await this.#tokens.token(scope);
    const send = (t: string): Promise<AcquirerResponse> =>
      this.#http.send(name, params, { ...options, headers: { ...options.headers, authorization: `Bearer ${t}` } });
    const res = await send(token);
    if (res.status !== 401) return res;
    this.#log.info({ route: name }, 'token refused; renewing once');
    this.#tokens.invalidate(scope, token);
    return send(await this.#tokens.token(scope));
  }

  async #json<N extends RouteName>(name: N, params: RouteParams<N>, options: SendOptions = {}): Promise<unknown> {
    const res = await this.raw(name, params, options);
    if (res.status < 200 || res.status >= 300) throw httpError(name, res.status, res.body);
    if (res.notJson || (res.body === undefined && res.status !== 204)) {
      throw new OmniposError('ACQUIRER_BAD_RESPONSE', `${name}: HTTP ${res.status} with a body that is not JSON`, {
        route: name,
        status: res.status,
        outcomeUnknown: !ROUTES[name].safeToRepeat,
      });
    }
    return res.body;
  }

  /* ----------------------------------------------------------- sales */

  /** `POST /1/physicalSales`. Never repeated automatically. Throws on anything but 2xx. */
  async createSale(sale: PhysicalSaleRequest, options: CallOptions = {}): Promise<PhysicalSaleResponse> {
    if (sale.Payment.Capture !== true) {
      throw new OmniposError('INVALID_ARGUMENT', 'Payment.Capture: must be true (terminal sales have no capture call)');
    }
    const body = await this.#json('saleCreate', {}, { json: sale, ...options });
    if (!isObject(body) || !isObject(body.Payment)) {
      throw new OmniposError('ACQUIRER_BAD_RESPONSE', 'saleCreate: the answer has no Payment', {
        route: 'saleCreate',
        outcomeUnknown: true,
      });
    }
    return body as PhysicalSaleResponse;
  }

  /** Sends the sale and applies the sale table; never throws for what the host or the network did. */
  async authorize(
    sale: PhysicalSaleRequest,
    options: CallOptions = {},
  ): Promise<{ outcome: SaleOutcome; answer?: PhysicalSaleResponse }> {
    try {
      const res = await this.raw('saleCreate', {}, { json: sale, ...options });
      const outcome = saleOutcome({ kind: 'answer', status: res.status, body: res.body }, sale.Payment.Capture);
      return isObject(res.body) && isObject(res.body.Payment)
        ? { outcome, answer: res.body as PhysicalSaleResponse }
        : { outcome };
    } catch (e) {
      if (e instanceof OmniposError && e.code === 'INVALID_ARGUMENT') throw e;
      return { outcome: saleOutcome(exchangeOf({ error: e }), sale.Payment.Capture) };
    }
  }

  /** `GET /1/physicalSales/{PaymentId}` (query address). */
  async getSale(paymentId: string, options: CallOptions = {}): Promise<PhysicalSaleResponse> {
    return (await this.#json('saleGet', { PaymentId: paymentId }, options)) as PhysicalSaleResponse;
  }

  /** `GET /1/physicalSales/MerchantOrderId/{MerchantOrderId}`. A 404 throws with status 404: not final by itself. */
  async getSaleByOrderId(merchantOrderId: string, options: CallOptions = {}): Promise<PhysicalSaleResponse> {
    return (await this.#json(
      'saleGetByOrderId',
      { MerchantOrderId: merchantOrderId },
      options,
    )) as PhysicalSaleResponse;
  }

  /** `PUT …/{PaymentId}/confirmation`; chip sales send the card's EMV data. */
  async confirmSale(paymentId: string, chip?: ConfirmChipData, options: CallOptions = {}): Promise<OperationAnswer> {
    return (await this.#json(
      'saleConfirm',
      { PaymentId: paymentId },
      { json: chip ?? {}, ...options },
    )) as OperationAnswer;
  }

  /** `DELETE /1/physicalSales/{PaymentId}`; chip sales send the card's EMV data. */
  async undoSale(paymentId: string, chip?: UndoChipData, options: CallOptions = {}): Promise<OperationAnswer> {
    return (await this.#json(
      'saleUndo',
      { PaymentId: paymentId },
      { ...(chip ? { json: chip } : {}), ...options },
    )) as OperationAnswer;
  }

  /** `DELETE /1/physicalSales/orderId/{MerchantOrderId}`: when the sale's answer never arrived. */
  async undoSaleByOrderId(
    merchantOrderId: string,
    chip?: UndoChipData,
    options: CallOptions = {},
  ): Promise<OperationAnswer> {
    return (await this.#json(
      'saleUndoByOrderId',
      { MerchantOrderId: merchantOrderId },
      {
        ...(chip ? { json: chip } : {}),
        ...options,
      },
    )) as OperationAnswer;
  }

  /* ----------------------------------------------------------- voids */

  /** `POST …/{PaymentId}/voids` with the card read again. Never repeated automatically. */
  async createVoid(paymentId: string, request: VoidRequest, options: CallOptions = {}): Promise<VoidAnswer> {
    return (await this.#json('voidCreate', { PaymentId: paymentId }, { json: request, ...options })) as VoidAnswer;
  }

  async confirmVoid(paymentId: string, voidId: string, options: CallOptions = {}): Promise<VoidAnswer> {
    return (await this.#json(
      'voidConfirm',
      { PaymentId: paymentId, VoidId: voidId },
      { json: {}, ...options },
    )) as VoidAnswer;
  }

  async undoVoid(paymentId: string, voidId: string, options: CallOptions = {}): Promise<VoidAnswer> {
    return (await this.#json('voidUndo', { PaymentId: paymentId, VoidId: voidId }, options)) as VoidAnswer;
  }

  async undoVoidByMerchantVoidId(
    paymentId: string,
    merchantVoidId: string,
    options: CallOptions = {},
  ): Promise<VoidAnswer> {
    return (await this.#json(
      'voidUndoByMerchantVoidId',
      { PaymentId: paymentId, MerchantVoidId: merchantVoidId },
      options,
    )) as VoidAnswer;
  }

  async getVoid(paymentId: string, voidId: string, options: CallOptions = {}): Promise<VoidAnswer> {
    return (await this.#json('voidGet', { PaymentId: paymentId, VoidId: voidId }, options)) as VoidAnswer;
  }

  /* ------------------------------------------------ outcome wrappers */

  /** Runs a confirm/undo/void-confirm/void-undo call and applies the operation table. */
  async settle(op: Operation, call: () => Promise<unknown>): Promise<OperationOutcome> {
    try {
      const body = await call();
      return operationOutcome(op, { kind: 'answer', status: 200, body });
    } catch (e) {
      return operationOutcome(op, exchangeOf({ error: e }));
    }
  }

  /** Sends a void create and applies the void table; never throws for what the host or the network did. */
  async settleVoid(paymentId: string, request: VoidRequest, options: CallOptions = {}): Promise<VoidOutcome> {
    try {
      const res = await this.raw('voidCreate', { PaymentId: paymentId }, { json: request, ...options });
      return voidOutcome({ kind: 'answer', status: res.status, body: res.body });
    } catch (e) {
      return voidOutcome(exchangeOf({ error: e }));
    }
  }

  /* ------------------------------------- initialization, registration */

  /** `GET /initialization/{SubordinatedMerchantId}/{TerminalId}` (parameters address). */
  async initialization(
    subordinatedMerchantId: string,
    terminalId: string,
    options: CallOptions = {},
  ): Promise<Record<string, unknown>> {
    return (await this.#json(
      'initialization',
      { SubordinatedMerchantId: subordinatedMerchantId, TerminalId: terminalId },
      options,
    )) as Record<string, unknown>;
  }

  /** `POST /initialization` with the pinpad's `TechnicalParameter` ("baixa técnica"). */
  async initializationTechnical(
    body: Record<string, unknown>,
    options: CallOptions = {},
  ): Promise<Record<string, unknown>> {
    return (await this.#json('initializationTechnical', {}, { json: body, ...options })) as Record<string, unknown>;
  }

  async createMerchant(body: Record<string, unknown>, options: CallOptions = {}): Promise<Record<string, unknown>> {
    return (await this.#json('merchantCreate', {}, { json: body, ...options })) as Record<string, unknown>;
  }

  async getMerchant(subordinatedMerchantId: string, options: CallOptions = {}): Promise<Record<string, unknown>> {
    return (await this.#json('merchantGet', { SubordinatedMerchantId: subordinatedMerchantId }, options)) as Record<
      string,
      unknown
    >;
  }

  async updateMerchant(
    subordinatedMerchantId: string,
    body: Record<string, unknown>,
    options: CallOptions = {},
  ): Promise<Record<string, unknown>> {
    return (await this.#json(
      'merchantUpdate',
      { SubordinatedMerchantId: subordinatedMerchantId },
      { json: body, ...options },
    )) as Record<string, unknown>;
  }

  async createTerminal(body: Record<string, unknown>, options: CallOptions = {}): Promise<Record<string, unknown>> {
    return (await this.#json('terminalCreate', {}, { json: body, ...options })) as Record<string, unknown>;
  }
}
