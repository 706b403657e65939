import { ERROR_CODES, type ErrorCode } from '../core/index.js';
import { ref, type Schema } from './openapi-kit.js';

/** A body the operation reads (src/api/http-kit.ts readJson): what it may say of the body itself. */
export const BODY_ERRORS: readonly ErrorCode[] = [
  'INVALID_JSON',
  'INVALID_BODY',
  'INVALID_FIELD',
  'UNSUPPORTED_MEDIA_TYPE',
  'PAYLOAD_TOO_LARGE',
];
/** An operation that writes the journal: the disk may refuse (the transaction rolled back, nothing half-written). */
export const WRITE_ERRORS: readonly ErrorCode[] = ['STORE_WRITE_FAILED'];
/** A new payment or void: the checks before anything is read or sent (src/main.ts canSell, src/engine/before-sale.ts). */
export const START_ERRORS: readonly ErrorCode[] = [...WRITE_ERRORS, 'BUSY', 'INIT_NOT_INITIALIZED', 'CLOCK_BEHIND'];
/** The supervisor's credential (voids, the day's close). */
export const SUPERVISOR_ERRORS: readonly ErrorCode[] = ['SUPERVISOR_REQUIRED', 'SUPERVISOR_NOT_CONFIGURED'];
/** The card typed on the pinpad (a phone order, a card saved alone): src/engine/cnp/typed-card.ts. */
export const TYPED_ERRORS: readonly ErrorCode[] = [
  'PINPAD_OPENING',
  'CNP_TYPING_CANCELLED',
  'CNP_TYPING_FAILED',
  'CNP_CARD_REFUSED',
  'CNP_DEBIT_NEEDS_AUTHENTICATION',
  'CNP_BIN_LOOKUP_FAILED',
];

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
 * An operation's error answers from its `errors` (src/api/routes.ts): one per status its codes have,
 * with their enum. Every operation behind the token also answers `UNAUTHORIZED`, and every operation
 * `MISDIRECTED_REQUEST` for a `Host` the terminal does not answer for (src/core/host-header.ts). A
 * documented error answer no code gives is an error.
 */
export function withErrorCodes(
  key: string,
  responses: Readonly<Record<string, Response>>,
  listed: readonly ErrorCode[],
  authenticated: boolean,
): Record<string, Response> {
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
      throw new Error(`openapi: ${key} documents ${status} but none of its errors gives it`);
  const out: Record<string, Response> = { ...responses };
  for (const [status, list] of byStatus) out[status] = errorAnswer(responses[status], list);
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}
