/**
 * The pinpad driver's own error type. drivers/ may not import src/, so the driver throws
 * `PinpadError` with a stable `code` (the same strings as the catalogue in
 * src/core/errors/codes.ts) and a `context`; adapters and the CLI map it to `OmniposError`
 * with `toOmniposCode(e.code)` being the identity. Callers match `code`, never the message.
 */
export const PINPAD_ERROR_CODES = [
  /** The link is down: port closed, write failed, EIO, device removed, or no answer to a probe. */
  'PINPAD_DISCONNECTED',
  /** No ACK/NAK within the ACK time, or no response within the response time. */
  'PINPAD_TIMEOUT',
  /** The pinpad refused the command three times (NAK), or its response failed the CRC three times. */
  'PINPAD_NAK',
  /** The command was cancelled (AbortSignal, CAN answered by EOT, or dropped from the queue). */
  'PINPAD_CANCELLED',
  /** The pinpad answered with a status other than ST_OK; `context.status` and `context.statusName` say which. */
  'PINPAD_STATUS',
  /** A response that does not decode (wrong id, bad length, bad field); `context` says where. */
  'PINPAD_PROTOCOL',
  /** A value the caller gave does not fit the command's layout. */
  'PINPAD_INVALID_ARGUMENT',
  /** The pinpad or port could not be found or opened. */
  'PINPAD_NOT_FOUND',
  /** The pinpad cannot do what was asked: a card command to a pinpad without secure OPN (the secure channel). */
  'PINPAD_UNSUPPORTED',
] as const;

export type PinpadErrorCode = (typeof PINPAD_ERROR_CODES)[number];

export type PinpadErrorContext = Readonly<Record<string, unknown>>;

/** An error raised by drivers/pinpad or drivers/transport. Never carries card data. */
export class PinpadError extends Error {
  readonly code: PinpadErrorCode;
  readonly context: PinpadErrorContext;

  constructor(code: PinpadErrorCode, message: string, context: PinpadErrorContext = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PinpadError';
    this.code = code;
    this.context = context;
  }

  toJSON(): { code: PinpadErrorCode; message: string; context: PinpadErrorContext } {
    return { code: this.code, message: this.message, context: this.context };
  }
}

/** True when `e` is a PinpadError (of `code`, when given). */
export function isPinpadError(e: unknown, code?: PinpadErrorCode): e is PinpadError {
  return e instanceof PinpadError && (code === undefined || e.code === code);
}

/** True when the link went down under the caller (the command may or may not have run). */
export function isDisconnected(e: unknown): boolean {
  return isPinpadError(e, 'PINPAD_DISCONNECTED');
}
