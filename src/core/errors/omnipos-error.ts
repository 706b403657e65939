import { ERROR_CODES, type ErrorCode } from './codes.js';

export type ErrorContext = Readonly<Record<string, unknown>>;

/**
 * The base of every error omnipos throws on purpose. `code` comes from the catalogue;
 * `context` carries what and where (a key path, a field id, an offset), never card data.
 */
export class OmniposError extends Error {
  readonly code: ErrorCode;
  readonly context: ErrorContext;

  constructor(code: ErrorCode, message: string, context: ErrorContext = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OmniposError';
    this.code = code;
    this.context = context;
  }

  get httpStatus(): number {
    return ERROR_CODES[this.code].http;
  }

  get exitCode(): number {
    return ERROR_CODES[this.code].exit;
  }

  toJSON(): { code: ErrorCode; message: string; context: ErrorContext } {
    return { code: this.code, message: this.message, context: this.context };
  }
}

export function isOmniposError(e: unknown, code?: ErrorCode): e is OmniposError {
  return e instanceof OmniposError && (code === undefined || e.code === code);
}

/** Exit code for any thrown value: the catalogue's for ours, 1 for anything else. */
export function exitCodeOf(e: unknown): number {
  return e instanceof OmniposError ? e.exitCode : 1;
}

/** HTTP status for any thrown value: the catalogue's for ours, 500 for anything else. */
export function httpStatusOf(e: unknown): number {
  return e instanceof OmniposError ? e.httpStatus : 500;
}
