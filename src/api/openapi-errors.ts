import { ERROR_CODES, type ErrorCode } from '../core/index.js';
import { ref, type Schema } from './openapi-kit.js';

/** A body the operation reads (src/api/http-kit.ts readJson): what it may say of the body itself. */
const BODY: ErrorCode[] = [
  'INVALID_JSON',
  'INVALID_BODY',
  'INVALID_FIELD',
  'UNSUPPORTED_MEDIA_TYPE',
  'PAYLOAD_TOO_LARGE',
];
/** An operation that writes the journal: the disk may refuse (the transaction rolled back, nothing half-written). */
const WRITES: ErrorCode[] = ['STORE_WRITE_FAILED'];
/** A new payment or void: the checks before anything is read or sent (src/main.ts canSell, src/engine/before-sale.ts). */
const STARTS: ErrorCode[] = [...WRITES, 'BUSY', 'INIT_NOT_INITIALIZED', 'CLOCK_BEHIND'];
/** The supervisor's credential (voids, the day's close). */
const SUPERVISOR: ErrorCode[] = ['SUPERVISOR_REQUIRED', 'SUPERVISOR_NOT_CONFIGURED'];
/** The card typed on the pinpad (a phone order, a card saved alone): src/engine/cnp/typed-card.ts. */
const TYPED: ErrorCode[] = [
  'PINPAD_OPENING',
  'CNP_TYPING_CANCELLED',
  'CNP_TYPING_FAILED',
  'CNP_CARD_REFUSED',
  'CNP_DEBIT_NEEDS_AUTHENTICATION',
  'CNP_BIN_LOOKUP_FAILED',
];
/** The saved cards and recurrences of sales without the card (src/api/card-not-present-cards.ts, -recurrences.ts). */
const CNP_CARD_ERRORS: Record<string, readonly ErrorCode[]> = {
  'POST /v1/card-not-present/cards': [
    ...BODY,
    'BUSY',
    'IDEMPOTENCY_KEY_REUSED',
    'NOT_AVAILABLE',
    ...TYPED,
    'CNP_HOST_REFUSED',
    'ACQUIRER_UNKNOWN_OUTCOME',
  ],
  'GET /v1/card-not-present/cards': ['NOT_AVAILABLE'],
  'GET /v1/card-not-present/cards/{id}': ['NOT_FOUND', 'NOT_AVAILABLE'],
  'DELETE /v1/card-not-present/cards/{id}': ['INVALID_BODY', ...SUPERVISOR, 'NOT_FOUND', 'NOT_AVAILABLE'],
  'POST /v1/card-not-present/recurrences': [
    ...BODY,
    ...STARTS,
    'IDEMPOTENCY_KEY_REUSED',
    'NOT_AVAILABLE',
    'CNP_NOT_OFFERED',
    ...TYPED,
  ],
  'GET /v1/card-not-present/recurrences/{id}': [
    'NOT_FOUND',
    'NOT_ALLOWED',
    'NOT_AVAILABLE',
    'CNP_NOT_OFFERED',
    'ACQUIRER_UNREACHABLE',
  ],
};

/**
 * Every code each operation answers, from the one catalogue (src/core/errors/codes.ts gives each its
 * status and meaning). The OpenAPI document lists them per status as an enum of `Error.code`, and
 * the tests hold every answer of the daemon to it: a code an operation answers that is not here
 * fails them. Every operation behind the token also answers `UNAUTHORIZED`, and every operation
 * `MISDIRECTED_REQUEST` for a `Host` the terminal does not answer for (src/core/host-header.ts).
 */
export const OPERATION_ERRORS: Readonly<Record<string, readonly ErrorCode[]>> = {
  'POST /v1/payments': [
    ...BODY,
    ...STARTS,
    'IDEMPOTENCY_KEY_REUSED',
    'NOT_AVAILABLE',
    'TYPING_NOT_ALLOWED',
    'PINPAD_OPENING',
    'RECEIPT_PRINTER_NOT_READY',
  ],
  'GET /v1/payments': ['INVALID_FIELD'],
  'GET /v1/payments/{id}': ['NOT_FOUND'],
  'POST /v1/payments/{id}/confirm': ['INVALID_BODY', 'NOT_FOUND', 'NOT_ALLOWED', 'NOT_AVAILABLE', ...WRITES],
  'POST /v1/payments/{id}/undo': ['INVALID_BODY', 'NOT_FOUND', 'NOT_ALLOWED', 'NOT_AVAILABLE', ...WRITES],
  'POST /v1/payments/{id}/cancel': ['INVALID_BODY', 'NOT_FOUND', 'NOT_ALLOWED', 'NOT_AVAILABLE', ...WRITES],
  'GET /v1/payments/{id}/receipt': ['INVALID_FIELD', 'NOT_FOUND', 'RECEIPT_NOT_AVAILABLE'],
  'POST /v1/payments/{id}/receipt/answer': [...BODY, 'NOT_FOUND', 'NOT_ALLOWED', ...WRITES],
  'POST /v1/payments/{id}/receipt/print': [...BODY, 'NOT_FOUND', 'RECEIPT_NOT_AVAILABLE'],
  'POST /v1/payments/{id}/void': [
    ...BODY,
    ...STARTS,
    ...SUPERVISOR,
    'NOT_FOUND',
    'NOT_AVAILABLE',
    'VOID_NOT_ALLOWED',
    'VOID_OVER_LIMIT',
    'VOID_TOO_LATE',
    'PINPAD_OPENING',
  ],
  'GET /v1/payments/{id}/voids': ['NOT_FOUND'],
  'GET /v1/voids/{id}': ['NOT_FOUND'],
  'POST /v1/card-not-present/sales': [...BODY, ...STARTS, 'IDEMPOTENCY_KEY_REUSED', 'NOT_AVAILABLE', ...TYPED],
  'GET /v1/card-not-present/sales/{id}': ['NOT_FOUND'],
  'POST /v1/events/ticket': ['INVALID_BODY'],
  'GET /v1/events': ['INVALID_FIELD', 'TOO_MANY_STREAMS'],
  'GET /v1/day/report': ['INVALID_FIELD', 'NOT_AVAILABLE'],
  'POST /v1/day/close': [...BODY, ...SUPERVISOR, 'NOT_ALLOWED', 'NOT_AVAILABLE', ...WRITES],
  'POST /v1/card-not-present/sales/{id}/capture': [
    ...BODY,
    'NOT_FOUND',
    'NOT_ALLOWED',
    'NOT_AVAILABLE',
    'CNP_HOST_REFUSED',
  ],
  'POST /v1/card-not-present/sales/{id}/void': [
    ...BODY,
    ...SUPERVISOR,
    'NOT_FOUND',
    'NOT_ALLOWED',
    'NOT_AVAILABLE',
    'CNP_HOST_REFUSED',
  ],
  ...CNP_CARD_ERRORS,
  'GET /v1/health': [],
  'GET /metrics': [],
  'GET /v1/openapi.json': ['NOT_ACCEPTABLE'],
  'GET /v1/docs': ['NOT_ACCEPTABLE'],
  'GET /v1/events.openapi.json': ['NOT_ACCEPTABLE'],
};

type Response = {
  description?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema?: Schema }>;
};

const isErrorAnswer = (r: Response | undefined): boolean =>
  JSON.stringify(r?.content?.['application/json']?.schema) === JSON.stringify(ref('Error'));

/** The error answer of one status: `Error` with `code` narrowed to the operation's codes of that status, each explained. */
function errorAnswer(given: Response | undefined, codes: readonly ErrorCode[]): Response {
  const list = codes.map((c) => `- \`${c}\`: ${ERROR_CODES[c].summary}.`).join('\n');
  return {
    description: given?.description ? `${given.description}\n\n${list}` : list,
    ...(given?.headers ? { headers: given.headers } : {}),
    content: {
      'application/json': {
        schema: {
          allOf: [ref('Error')],
          properties: { error: { properties: { code: { type: 'string', enum: codes } } } },
        },
      },
    },
  };
}

/**
 * The operations' error answers from {@link OPERATION_ERRORS}: one per status its codes have, with
 * their enum. A documented error answer no code gives, or an operation without a row, is an error.
 */
export function withErrorCodes(
  key: string,
  responses: Record<string, Response>,
  authenticated: boolean,
): Record<string, Response> {
  const listed = OPERATION_ERRORS[key];
  if (!listed) throw new Error(`openapi: no error codes for ${key} (add its row to OPERATION_ERRORS)`);
  const codes: ErrorCode[] = [
    ...(authenticated ? (['UNAUTHORIZED'] as const) : []),
    'MISDIRECTED_REQUEST',
    ...new Set(listed),
  ];
  const byStatus = new Map<string, ErrorCode[]>();
  for (const c of codes)
    byStatus.set(String(ERROR_CODES[c].http), [...(byStatus.get(String(ERROR_CODES[c].http)) ?? []), c]);
  for (const [status, r] of Object.entries(responses))
    if (isErrorAnswer(r) && !byStatus.has(status))
      throw new Error(`openapi: ${key} documents ${status} but no code of OPERATION_ERRORS gives it`);
  const out: Record<string, Response> = { ...responses };
  for (const [status, list] of byStatus) out[status] = errorAnswer(responses[status], list);
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}
