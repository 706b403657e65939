import { createRequire } from 'node:module';
import type { Dispatcher } from 'undici';
import type * as UndiciModule from 'undici';
import { OmniposError, sleep } from '../core/index.js';
import type { Logger } from '../core/log/index.js';
import type { AcquirerErrorContext } from './errors.js';
import { ROUTES, routePath, type RouteBase, type RouteName, type RouteParams } from './omni/routes.js';

/** undici loads at the first request, not when omnipos starts (fast start). */
const load = createRequire(import.meta.url);
const undici = (): typeof UndiciModule => load('undici') as typeof UndiciModule;

/** Options of the HTTP layer shared by every acquirer client. */
export interface AcquirerHttpOptions {
  /** Base address per route base, e.g. `{ request: 'https://api…', … }`. */
  bases: Readonly<Record<RouteBase, string>>;
  /** The undici dispatcher (an Agent, or a test's own). Default: a private Agent. */
  dispatcher?: Dispatcher;
  /** Default per-call timeout in ms (above the host's own 25 s). */
  timeoutMs: number;
  /** Adds `Environment: Homologacao` to every request (the acquirer's homologation hosts). */
  homologation?: boolean;
  /** How many times a route marked safe to repeat is re-sent after a transport failure or a 5xx. Default 1. */
  safeRetries?: number;
  /** Pause before such a repeat, ms. Default 200. */
  retryDelayMs?: number;
  /** Told the host's `Date` header of every answer (the terminal checks its clock against it). */
  onHostDate?: (date: Date) => void;
  log: Logger;
}

export interface SendOptions {
  /** A JSON body; `null` sends the literal `null`. */
  json?: unknown;
  /** A url-encoded form body. */
  form?: Record<string, string>;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  timeoutMs?: number;
}

/** An answer from the host, whatever its status. */
export interface AcquirerResponse {
  route: RouteName;
  status: number;
  /** The parsed JSON body, or undefined when empty; `text` holds the raw text. */
  body: unknown;
  text: string;
  /** The host's `Date` header, when valid. */
  date?: Date;
  /** The answer's body did not parse as JSON although it was not empty. */
  notJson: boolean;
}

const NOT_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'EADDRNOTAVAIL',
]);

function errorCode(e: unknown): string | undefined {
  let cur: unknown = e;
  for (let i = 0; i < 4 && cur && typeof cur === 'object'; i++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * What a failed request's error says of it: `timeout` (no answer in time), `not-sent` (the
 * connection was never made: the request did not leave), `lost` (it may have reached the host).
 */
export function transportFailure(e: unknown, aborted: boolean): 'timeout' | 'not-sent' | 'lost' {
  const code = errorCode(e);
  if (aborted || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return 'timeout';
  return code && NOT_SENT.has(code) ? 'not-sent' : 'lost';
}

/**
 * The one place the JSON acquirer clients touch the network (the XML webservice 1.5 has its own,
 * webservice15/transport.ts): builds the URL from the routes table, applies the timeout, the homologation header and the repeat rule (only routes safe to repeat;
 * never a sale or void create), and turns transport failures into typed errors that say
 * whether the request may have reached the host. Bodies and headers are never logged.
 */
export class AcquirerHttp {
  readonly #o: AcquirerHttpOptions;
  #dispatcher: Dispatcher | undefined;
  readonly #log: Logger;

  constructor(options: AcquirerHttpOptions) {
    if (!Number.isInteger(options.timeoutMs) || options.timeoutMs <= 0) {
      throw new OmniposError(
        'INVALID_ARGUMENT',
        `acquirer http: timeoutMs must be a positive integer, got ${options.timeoutMs}`,
      );
    }
    this.#o = options;
    this.#dispatcher = options.dispatcher;
    this.#log = options.log;
  }

  /** The absolute URL of a route. */
  url<N extends RouteName>(name: N, params: RouteParams<N>, query?: Record<string, string>): string {
    const key = ROUTES[name].base;
    const base = this.#o.bases[key].replace(/\/+$/, '');
    if (base === '') {
      throw new OmniposError('INVALID_ARGUMENT', `${name}: no ${key} address is configured (acquirer.${key}Url)`, {
        route: name,
        base: key,
        outcomeUnknown: false,
      });
    }
    const qs = query && Object.keys(query).length > 0 ? `?${new URLSearchParams(query).toString()}` : '';
    return `${base}${routePath(name, params)}${qs}`;
  }

  /** Sends one request (repeating it only when the route is safe to repeat). */
  async send<N extends RouteName>(
    name: N,
    params: RouteParams<N>,
    options: SendOptions = {},
  ): Promise<AcquirerResponse> {
    const spec = ROUTES[name];
    const tries = spec.safeToRepeat ? 1 + (this.#o.safeRetries ?? 1) : 1;
    let last: unknown;
    for (let attempt = 1; attempt <= tries; attempt++) {
      try {
        const res = await this.#once(name, params, options);
        if (res.status >= 500 && attempt < tries) {
          last = res;
          await sleep(this.#o.retryDelayMs ?? 200);
          continue;
        }
        return res;
      } catch (e) {
        last = e;
        if (attempt >= tries) throw e;
        await sleep(this.#o.retryDelayMs ?? 200);
      }
    }
    // Unreachable: the loop returns or throws; keeps the compiler sure.
    throw last instanceof Error ? last : new OmniposError('INTERNAL', `${name}: no answer`);
  }

  async #once<N extends RouteName>(name: N, params: RouteParams<N>, options: SendOptions): Promise<AcquirerResponse> {
    const spec = ROUTES[name];
    const url = this.url(name, params, options.query);
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (this.#o.homologation) headers.Environment = 'Homologacao';
    let body: string | undefined;
    if (options.form) {
      body = new URLSearchParams(options.form).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] = 'application/json';
    }
    const timeoutMs = options.timeoutMs ?? this.#o.timeoutMs;
    const started = Date.now();
    const signal = AbortSignal.timeout(timeoutMs);
    let res: Dispatcher.ResponseData;
    let text: string;
    try {
      res = await undici().request(url, {
        method: spec.method,
        headers,
        ...(body !== undefined ? { body } : {}),
        dispatcher: (this.#dispatcher ??= new (undici().Agent)({ keepAliveTimeout: 10_000 })),
        signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      text = await res.body.text();
    } catch (e) {
      throw this.#transportError(name, e, signal.aborted, timeoutMs);
    }
    const dateHeader = res.headers.date;
    const date = typeof dateHeader === 'string' ? new Date(dateHeader) : undefined;
    const validDate = date && !Number.isNaN(date.getTime()) ? date : undefined;
    if (validDate) this.#o.onHostDate?.(validDate);
    let parsed: unknown;
    let notJson = false;
    if (text.trim() !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        notJson = true;
      }
    }
    this.#log.debug({ route: name, status: res.statusCode, ms: Date.now() - started }, 'acquirer answer');
    return {
      route: name,
      status: res.statusCode,
      body: parsed,
      text,
      notJson,
      ...(validDate ? { date: validDate } : {}),
    };
  }

  #transportError(route: RouteName, e: unknown, aborted: boolean, timeoutMs: number): OmniposError {
    const code = errorCode(e);
    const failure = transportFailure(e, aborted);
    if (failure === 'timeout') {
      const ctx: AcquirerErrorContext = { route, outcomeUnknown: true, transport: 'timeout' };
      this.#log.warn({ route, timeoutMs }, 'acquirer did not answer in time');
      return new OmniposError('ACQUIRER_UNKNOWN_OUTCOME', `${route}: no answer within ${timeoutMs} ms`, ctx, {
        cause: e,
      });
    }
    if (failure === 'not-sent') {
      const ctx: AcquirerErrorContext = { route, outcomeUnknown: false, transport: 'not-sent' };
      this.#log.warn({ route, code }, 'acquirer unreachable');
      return new OmniposError('ACQUIRER_UNREACHABLE', `${route}: cannot connect (${code})`, ctx, { cause: e });
    }
    const ctx: AcquirerErrorContext = { route, outcomeUnknown: true, transport: 'lost' };
    this.#log.warn({ route, code }, 'acquirer connection lost');
    return new OmniposError('ACQUIRER_UNKNOWN_OUTCOME', `${route}: connection lost (${code ?? 'unknown'})`, ctx, {
      cause: e,
    });
  }

  /** Closes the private dispatcher (not one that was injected). */
  async close(): Promise<void> {
    if (!this.#o.dispatcher) await this.#dispatcher?.close();
  }
}
