import type { IncomingMessage, ServerResponse } from 'node:http';
import { isOmniposError, PAYMENT_KINDS } from '../core/index.js';
import { CARD_NOT_PRESENT_KINDS } from '../config/index.js';
import {
  DAY_BRAND_PATTERN,
  DAY_METHODS,
  DAY_OUTCOMES,
  DAY_PRODUCT_PATTERN,
  type DayBook,
} from '../operations/index.js';
import { ApiError, readJson, sendJson } from './http-kit.js';
import { operationsOf } from './routes.js';
import { BODY_ERRORS, SUPERVISOR_ERRORS, WRITE_ERRORS } from './openapi-errors.js';
import { error, UNAUTHORIZED } from './openapi-kit.js';
import type { SupervisorGate } from '../engine/index.js';
import { supervisorCredential } from './supervisor-headers.js';

/** What the day's routes need: the day book (none: the routes answer 409). */
export interface DayApiDeps {
  day?: DayBook | undefined;
  /** The supervisor's gate (the voids' one): closing the day needs a supervisor. */
  supervisor?: Pick<SupervisorGate, 'authorize'> | undefined;
}

function book(deps: DayApiDeps): DayBook {
  if (!deps.day) throw new ApiError(409, 'NOT_AVAILABLE', "the day's report is not available in this daemon");
  return deps.day;
}

function dateParam(query: URLSearchParams): string | undefined {
  const date = query.get('date');
  return date === null ? undefined : date;
}

/** The day's refusals as API answers naming the `date` field. */
function mapError(e: unknown): unknown {
  if (isOmniposError(e, 'OPERATIONS_INVALID_DATE')) return new ApiError(400, 'INVALID_FIELD', e.message, 'date');
  if (isOmniposError(e, 'OPERATIONS_DAY_NOT_CLOSABLE')) return new ApiError(409, 'NOT_ALLOWED', e.message, 'date');
  return e;
}

function mapped<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw mapError(e);
  }
}

/**
 * Who may close the day: the router has checked the cash register's bearer token; a supervisor
 * then proves it as for a void, with `X-Supervisor-Token` or `X-Supervisor-Password`
 * (SUPERVISOR_REQUIRED, 403, otherwise). A daemon without a supervisor gate closes no day.
 */
export function authorizeDayClose(req: IncomingMessage, deps: DayApiDeps): void {
  if (!deps.supervisor)
    throw new ApiError(
      409,
      'NOT_AVAILABLE',
      'closing the day needs a supervisor, and this daemon has no supervisor credentials',
    );
  deps.supervisor.authorize(supervisorCredential(req), 'closing the day');
}

/** `POST /v1/day/close`: the date from `?date=`, a JSON body `{ "date": … }`, or today. */
async function closeDay(
  req: IncomingMessage,
  res: ServerResponse,
  deps: DayApiDeps,
  query: URLSearchParams,
): Promise<void> {
  authorizeDayClose(req, deps);
  let date = dateParam(query);
  const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  if (hasBody) {
    const body = await readJson(req, 1024);
    for (const k of Object.keys(body))
      if (k !== 'date') throw new ApiError(400, 'INVALID_FIELD', `${k}: unknown field`, k);
    if (body.date !== undefined) {
      if (typeof body.date !== 'string')
        throw new ApiError(400, 'INVALID_FIELD', 'date: must be a string YYYY-MM-DD', 'date');
      date = body.date;
    }
  }
  const day = book(deps);
  const result = await day.close(date).catch((e: unknown) => {
    throw mapError(e);
  });
  sendJson(res, result.alreadyClosed ? 200 : 201, result);
}

type Schema = Record<string, unknown>;
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Schema, description: string): Schema => ({
  description,
  content: { 'application/json': { schema } },
});
const int = { type: 'integer' };
const str = { type: 'string' };
const group = {
  type: 'object',
  properties: { sales: int, salesAmount: int, voids: int, voidsAmount: int, net: int },
  required: ['sales', 'salesAmount', 'voids', 'voidsAmount', 'net'],
};
const groups = { type: 'object', additionalProperties: group };
const outcome = {
  type: 'string',
  enum: [...DAY_OUTCOMES],
  description:
    "What the line came to: a sale's `confirmed`, `approved` (awaiting the decision, or approved and its receipt on the way), `needs-refund`, `dead-letter` (failed on the API, the host holds it), `declined`, `undone`, `refunded` (Pix), `cancelled`, `refused` (the card did not fit the sale), `failed`, `in-progress`; a void's `voided` or `void-failed`.",
};
const brand = {
  type: 'string',
  pattern: DAY_BRAND_PATTERN,
  description:
    "A card sale's brand as the acquirer's `BrandId` of the initialization tables (digits, as the payment's `card.brandId`; its `fiscal.cardBrandName` names it and `fiscal.cardBrand` gives the NFC-e `tBand`, which this is not); `wallet` a wallet QR sale; `pix` a Pix; a card-not-present sale's scheme as its host names it (letters: `Visa`, `Master`; the webservice 1.5's `visa`); `unknown` when the row names none.",
};
const product = {
  type: 'string',
  pattern: DAY_PRODUCT_PATTERN,
  description:
    "A card sale's `ProductId` of the initialization tables (digits); a wallet QR sale's modality (`credit`, `debit`); `pix`; `unknown` when the row names none.",
};
const method = { type: 'string', enum: [...DAY_METHODS] };

/** One line of the day's report. */
const line: Schema = {
  type: 'object',
  properties: {
    id: int,
    kind: { type: 'string', enum: [...PAYMENT_KINDS, 'void'] },
    merchantOrderId: str,
    method,
    brand,
    product,
    state: str,
    outcome,
    amount: int,
    charged: int,
    voidOf: str,
    paymentId: str,
    backend: {
      type: 'string',
      enum: [...CARD_NOT_PRESENT_KINDS],
      description: 'A card-not-present sale: the host it went to (`cardNotPresent.kind`).',
    },
    createdAt: str,
    awaitingHostClose: {
      type: 'boolean',
      const: true,
      description:
        "A code that ended on the terminal and is watched until the host's close and the window after it (src/engine/awaiting-host-close.ts): a wallet QR sale's code that ended unpaid (cancelled or expired), for which the host may still show a payment taken before the code ended, which the terminal then undoes; or a wallet QR void's cancellation code that ended not applied (the void `pending`, holding its amount), which the host may still show applied, and the void is then confirmed. Open by design, not stuck.",
    },
  },
  required: [
    'id',
    'kind',
    'merchantOrderId',
    'method',
    'brand',
    'product',
    'state',
    'outcome',
    'amount',
    'charged',
    'createdAt',
  ],
};

/** The schemas of the day's answers, for the OpenAPI document. */
export const DAY_SCHEMAS: Record<string, Schema> = {
  DayReport: {
    type: 'object',
    description:
      'Every sale (card, wallet QR, Pix), void, undo, refund and needs-refund of one business day (00:00 to 00:00 host time), amounts in cents.',
    properties: {
      date: { ...str, pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
      from: { ...str, format: 'date-time' },
      to: { ...str, format: 'date-time' },
      generatedAt: { ...str, format: 'date-time' },
      closedAt: { anyOf: [{ ...str, format: 'date-time' }, { type: 'null' }] },
      counts: {
        type: 'object',
        properties: {
          sales: int,
          voids: int,
          byOutcome: { type: 'object', propertyNames: { enum: [...DAY_OUTCOMES] }, additionalProperties: int },
          byState: { type: 'object', additionalProperties: int },
          inProgress: int,
          awaitingHostClose: {
            ...int,
            description:
              "Lines awaiting the host's close (`awaitingHostClose`): wallet QR sales whose code ended unpaid, and wallet QR voids whose cancellation code ended not applied.",
          },
        },
        required: ['sales', 'voids', 'byOutcome', 'byState', 'inProgress'],
      },
      totals: {
        type: 'object',
        properties: {
          net: { ...int, description: 'Charged sales minus voids that took effect.' },
          salesAmount: int,
          voidsAmount: int,
          undoneAmount: int,
          refundedAmount: int,
          declinedAmount: int,
          needsRefundAmount: int,
          byMethod: { ...groups, propertyNames: { enum: [...DAY_METHODS] } },
          byBrand: {
            ...groups,
            propertyNames: { pattern: DAY_BRAND_PATTERN },
            description: 'By `brand` (see the lines).',
          },
          byProduct: {
            ...groups,
            propertyNames: { pattern: DAY_PRODUCT_PATTERN },
            description: 'By `product` (see the lines).',
          },
          byBackend: {
            ...groups,
            propertyNames: { enum: [...CARD_NOT_PRESENT_KINDS] },
            description:
              "The card-not-present sales by the host they went to (the lines' `backend`); present when the day has one. They are counted in `net`, `byMethod` and `byBrand` beside the card-present sales.",
          },
        },
        required: [
          'net',
          'salesAmount',
          'voidsAmount',
          'undoneAmount',
          'refundedAmount',
          'declinedAmount',
          'needsRefundAmount',
          'byMethod',
          'byBrand',
          'byProduct',
        ],
      },
      lines: { type: 'array', items: line },
      afterClose: {
        type: 'object',
        description:
          "Present on a closed day's report when payments of the same business day were opened after its close (`since`), or ended in another outcome than the close counted (`settled`: running or being undone when the day was closed): the close's counts and totals stay as they were printed, and these are accounted here, with their own lines and net. A sale is always in the report of the business day it was opened in (host time, 00:00 to 00:00); the acquirer settles it by its own business day.",
        properties: {
          since: { ...str, format: 'date-time' },
          sales: int,
          voids: int,
          net: {
            ...int,
            description:
              'Charged sales minus voids that took effect, after the close, plus what the settled payments charge now less what the close counted them charging.',
          },
          lines: { type: 'array', items: line },
          settled: {
            type: 'array',
            items: line,
            description:
              'Payments opened before the close that it counted in another outcome, as they ended (a sale being undone at the close that the host kept, a sale still running).',
          },
        },
        required: ['since', 'sales', 'voids', 'net', 'lines'],
      },
      preAuthorizationsOpen: {
        type: 'array',
        description:
          "Card-not-present pre-authorizations held at the host and not captured yet (of any day) when the report was made; each is on the lines of its own day too. Capture or void them before the host's capture deadline (alarm CNP_CAPTURE_DUE).",
        items: {
          type: 'object',
          properties: {
            id: int,
            merchantOrderId: str,
            amount: int,
            state: { enum: ['authorized', 'capturing'] },
            createdAt: { ...str, format: 'date-time' },
          },
          required: ['id', 'merchantOrderId', 'amount', 'state', 'createdAt'],
        },
      },
    },
    required: ['date', 'from', 'to', 'generatedAt', 'closedAt', 'counts', 'totals', 'lines'],
  },
  DayClose: {
    type: 'object',
    description: 'A closed day: archived once, never changed.',
    properties: {
      date: str,
      closedAt: { ...str, format: 'date-time' },
      report: ref('DayReport'),
      printOutcome: {
        type: ['string', 'null'],
        description: 'printed, failed, unsure, skipped; null without a printer.',
      },
      alreadyClosed: {
        type: 'boolean',
        description: 'The day was closed before: this is the archived close, nothing was printed.',
      },
    },
    required: ['date', 'closedAt', 'report', 'printOutcome', 'alreadyClosed'],
  },
};

const DATE = {
  name: 'date',
  in: 'query',
  required: false,
  description: 'A business day, YYYY-MM-DD (default: today, host time).',
  schema: { ...str, pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
};
const op = operationsOf<DayApiDeps>();

/** The day's report and close. */
export const DAY_OPERATIONS = [
  op({
    method: 'GET',
    path: '/v1/day/report',
    operationId: 'getDayReport',
    tag: 'day',
    errors: ['INVALID_FIELD', 'NOT_AVAILABLE'],
    summary: "The day's report (the archived one for a closed day)",
    parameters: [DATE],
    responses: {
      '200': json(ref('DayReport'), 'The report.'),
      '400': error('A date that is not YYYY-MM-DD.'),
      '401': UNAUTHORIZED,
      '409': error('No day book in this daemon.'),
    },
    handle: ({ res, query }, deps) =>
      sendJson(
        res,
        200,
        mapped(() => book(deps).report(dateParam(query))),
      ),
  }),
  op({
    method: 'POST',
    path: '/v1/day/close',
    operationId: 'closeDay',
    tag: 'day',
    errors: [...BODY_ERRORS, ...SUPERVISOR_ERRORS, 'NOT_ALLOWED', 'NOT_AVAILABLE', ...WRITE_ERRORS],
    summary: 'Close the day: print the report and archive it (supervisor)',
    description:
      'A supervisor authorizes the close as a void: `X-Supervisor-Token` (`omnipos supervisor token`) or `X-Supervisor-Password`.',
    parameters: [
      DATE,
      { name: 'X-Supervisor-Token', in: 'header', required: false, schema: str },
      { name: 'X-Supervisor-Password', in: 'header', required: false, schema: str },
    ],
    requestBody: {
      required: false,
      content: {
        'application/json': {
          schema: { type: 'object', properties: { date: DATE.schema }, additionalProperties: false },
        },
      },
    },
    responses: {
      '200': json(ref('DayClose'), 'The day was already closed: the archived close.'),
      '201': json(ref('DayClose'), 'Closed now.'),
      '400': error('A date that is not YYYY-MM-DD, or an unknown field.'),
      '401': UNAUTHORIZED,
      '403': error('SUPERVISOR_REQUIRED: no supervisor credential, or a wrong one.'),
      '409': error(
        'The day has not begun, no day book in this daemon, or SUPERVISOR_NOT_CONFIGURED (a password offered and none set).',
      ),
    },
    handle: ({ req, res, query }, deps) => closeDay(req, res, deps, query),
  }),
];
