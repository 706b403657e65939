import { OmniposError, isOmniposError, type ErrorContext } from '../core/index.js';
import { ROUTES, type RouteName } from './omni/routes.js';

/** What every acquirer error carries in its `context` (never a token, a key or card data). */
export type AcquirerErrorContext = {
  route: RouteName;
  /** The HTTP status, when the host answered. */
  status?: number;
  /** `ReturnCode` or `code`, as sent: the host sends numbers and strings alike. */
  returnCode?: string | number;
  /** `ReturnMessage` or `description`. */
  returnMessage?: string;
  /** True when the request may have been processed by the host and nobody knows how. */
  outcomeUnknown: boolean;
  /** How the exchange failed when there was no answer. */
  transport?: 'not-sent' | 'timeout' | 'lost';
};

/** The return code and message of an error or result body, in any of the documents' spellings. */
export function returnOf(body: unknown): { returnCode?: string | number; returnMessage?: string } {
  if (body === null || typeof body !== 'object') return {};
  // An array of errors ([{Code, Message}] in the e-commerce API) gives its first entry.
  if (Array.isArray(body)) return body.length > 0 ? returnOf(body[0]) : {};
  const b = body as Record<string, unknown>;
  const inner = (b.Payment && typeof b.Payment === 'object' ? b.Payment : b) as Record<string, unknown>;
  const pick = (...keys: string[]): unknown => {
    for (const k of keys) {
      if (inner[k] !== undefined) return inner[k];
      if (b[k] !== undefined) return b[k];
    }
    return undefined;
  };
  const code = pick('ReturnCode', 'code', 'Code');
  const message = pick('ReturnMessage', 'description', 'Message', 'message');
  return {
    ...(typeof code === 'string' || typeof code === 'number' ? { returnCode: code } : {}),
    ...(typeof message === 'string' ? { returnMessage: message } : {}),
  };
}

/** The error for an answer with a non-success HTTP status. A 5xx leaves the outcome unknown. */
export function httpError(route: RouteName, status: number, body: unknown): OmniposError {
  const ret = returnOf(body);
  const outcomeUnknown = status >= 500 || status === 408;
  const detail =
    ret.returnCode !== undefined
      ? ` ReturnCode ${String(ret.returnCode)}${ret.returnMessage ? ` (${ret.returnMessage.trim()})` : ''}`
      : '';
  const ctx: AcquirerErrorContext = { route, status, ...ret, outcomeUnknown };
  if (status === 401 || status === 403) {
    return new OmniposError('ACQUIRER_AUTH_FAILED', `${route}: HTTP ${status}${detail}`, ctx);
  }
  return new OmniposError('ACQUIRER_HTTP', `${route}: HTTP ${status}${detail}`, ctx);
}

/** True when the error says the request may have been processed (timeout, connection lost, 5xx). */
export function isOutcomeUnknown(e: unknown): boolean {
  return isOmniposError(e) && e.context.outcomeUnknown === true;
}

const TRANSPORTS: readonly (string | undefined)[] = ['not-sent', 'timeout', 'lost', undefined];

/** Whether an error's context is an acquirer error's (what {@link httpError} and the clients write). */
function isAcquirerContext(c: ErrorContext): c is ErrorContext & AcquirerErrorContext {
  const route = c.route;
  return (
    typeof route === 'string' &&
    Object.hasOwn(ROUTES, route) &&
    typeof c.outcomeUnknown === 'boolean' &&
    (c.status === undefined || typeof c.status === 'number') &&
    (c.returnCode === undefined || typeof c.returnCode === 'string' || typeof c.returnCode === 'number') &&
    (c.returnMessage === undefined || typeof c.returnMessage === 'string') &&
    TRANSPORTS.some((t) => t === c.transport)
  );
}

/** The acquirer context of an error, or undefined for anything else. */
export function acquirerContext(e: unknown): AcquirerErrorContext | undefined {
  return isOmniposError(e) && isAcquirerContext(e.context) ? e.context : undefined;
}
