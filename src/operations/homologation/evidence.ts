import type { IncomingHttpHeaders } from 'node:http';
import { createRequire } from 'node:module';
import type { Dispatcher } from 'undici';
import type * as UndiciModule from 'undici';
import { scrubText, scrubValue } from '../../core/index.js';
import { decodeTlv, tlvToJson, type TlvJson } from '../../emv/index.js';
import { matchRoute } from '../../acquirer/index.js';

/** undici loads at the first tapped request, not when the daemon (which imports the operations) starts (fast start). */
const undici = (): typeof UndiciModule => createRequire(import.meta.url)('undici') as typeof UndiciModule;

/** One request to the acquirer and its answer, masked for the certification report. */
export interface Exchange {
  at: string;
  ms: number;
  method: string;
  url: string;
  /** The acquirer route it matched (routes table), when it did. */
  route?: string;
  request: { headers: unknown; body?: unknown };
  response?: { status: number; headers: { date?: string; 'content-type'?: string }; body?: unknown };
  error?: string;
  /** The EMV data objects the request and the answer carried, decoded and masked by tag. */
  emv?: { request?: TlvJson[]; response?: TlvJson[] };
}

/** EMV data fields in the omni API's bodies (hex TLV). */
const EMV_FIELDS = new Set([
  'emvdata',
  'emvresponse',
  'emvresponsedata',
  'issuerscriptresults',
  'issuerscriptsresults',
]);

function decodeEmv(hex: unknown): TlvJson[] | undefined {
  if (typeof hex !== 'string' || !/^([0-9A-Fa-f]{2})+$/.test(hex)) return undefined;
  try {
    return tlvToJson(decodeTlv(hex));
  } catch {
    return undefined;
  }
}

/** Finds the EMV hex fields anywhere in a body and decodes them (masked by tag: 5A, 57, 56, 5F20, 9F0B, 9F6B, 99). */
function emvIn(value: unknown, out: TlvJson[] = [], depth = 0): TlvJson[] {
  if (depth > 6 || value === null || typeof value !== 'object') return out;
  for (const [k, v] of Object.entries(value)) {
    if (EMV_FIELDS.has(k.toLowerCase())) out.push(...(decodeEmv(v) ?? []));
    else emvIn(v, out, depth + 1);
  }
  return out;
}

/**
 * A body as the evidence shows it: JSON with sensitive fields redacted (track, card number, PIN
 * block, KSN, security code, tokens, keys, EMV data: the logger's scrubber) and PAN-shaped digits
 * masked; anything else as scrubbed text, the secret-bearing form fields removed.
 */
export function maskBody(raw: string | undefined): unknown {
  if (raw === undefined || raw === '') return undefined;
  try {
    return scrubValue(JSON.parse(raw));
  } catch {
    if (/=/.test(raw) && !/\s/.test(raw)) {
      const form = new URLSearchParams(raw);
      return scrubValue(Object.fromEntries(form.entries()));
    }
    return scrubText(raw);
  }
}

function headerObject(h: Dispatcher.DispatchOptions['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  if (!h) return out;
  if (Array.isArray(h)) {
    for (let i = 0; i + 1 < h.length; i += 2) out[String(h[i]).toLowerCase()] = String(h[i + 1]);
    return out;
  }
  const entries: Iterable<[string, unknown]> =
    typeof (h as { entries?: unknown }).entries === 'function' && !(Object.getPrototypeOf(h) === Object.prototype)
      ? (h as Map<string, unknown>).entries()
      : Object.entries(h);
  for (const [k, v] of entries) if (typeof v === 'string' || typeof v === 'number') out[k.toLowerCase()] = String(v);
  return out;
}

function bodyText(body: Dispatcher.DispatchOptions['body']): string | undefined {
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return Buffer.from(body).toString('utf8');
  return body === undefined || body === null ? undefined : '[stream]';
}

/**
 * Taps the acquirer clients' requests (an undici interceptor composed onto their dispatcher):
 * each request and answer is recorded, masked, under the test that is running.
 */
export class EvidenceRecorder {
  #current: string | undefined;
  readonly #byTest = new Map<string, Exchange[]>();

  /** Exchanges from now on belong to `testId` (undefined: not recorded). */
  begin(testId: string | undefined): void {
    this.#current = testId;
    if (testId !== undefined && !this.#byTest.has(testId)) this.#byTest.set(testId, []);
  }

  exchanges(testId: string): Exchange[] {
    return this.#byTest.get(testId) ?? [];
  }

  /** The interceptor: compose it onto the acquirer's dispatcher (`agent.compose(recorder.interceptor())`). */
  interceptor(): Dispatcher.DispatcherComposeInterceptor {
    return (dispatch) => (opts, handler) => {
      const testId = this.#current;
      if (testId === undefined) return dispatch(opts, handler);
      const started = Date.now();
      const url = `${String(opts.origin ?? '')}${opts.path}`;
      const requestBody = bodyText(opts.body);
      const requestJson = maskBody(requestBody);
      const exchange: Exchange = {
        at: new Date().toISOString(),
        ms: 0,
        method: opts.method,
        url: scrubText(url),
        request: {
          headers: scrubValue(headerObject(opts.headers)),
          ...(requestJson !== undefined ? { body: requestJson } : {}),
        },
      };
      try {
        const m = matchRoute(opts.method, new URL(url).pathname);
        if (m && 'name' in m) exchange.route = m.name;
      } catch {
        // a URL the routes table does not know: recorded without a route name
      }
      const requestEmv = (() => {
        try {
          return requestBody ? emvIn(JSON.parse(requestBody)) : [];
        } catch {
          return [];
        }
      })();
      this.#byTest.get(testId)?.push(exchange);
      const chunks: Buffer[] = [];
      let status = 0;
      let headers: IncomingHttpHeaders = {};
      const finish = (error?: Error): void => {
        exchange.ms = Date.now() - started;
        if (error) exchange.error = scrubText(error.message);
        if (status) {
          const text = Buffer.concat(chunks).toString('utf8');
          const body = maskBody(text);
          exchange.response = {
            status,
            headers: {
              ...(typeof headers.date === 'string' ? { date: headers.date } : {}),
              ...(typeof headers['content-type'] === 'string' ? { 'content-type': headers['content-type'] } : {}),
            },
            ...(body !== undefined ? { body } : {}),
          };
          let responseEmv: TlvJson[] = [];
          try {
            responseEmv = text ? emvIn(JSON.parse(text)) : [];
          } catch {
            responseEmv = [];
          }
          if (requestEmv.length > 0 || responseEmv.length > 0)
            exchange.emv = {
              ...(requestEmv.length ? { request: requestEmv } : {}),
              ...(responseEmv.length ? { response: responseEmv } : {}),
            };
        }
      };
      const inner = new (undici().DecoratorHandler)(handler) as Dispatcher.DispatchHandler;
      const tap: Dispatcher.DispatchHandler = {
        onRequestStart: (c, ctx) => inner.onRequestStart?.(c, ctx),
        onRequestUpgrade: (c, s, h, socket) => inner.onRequestUpgrade?.(c, s, h, socket),
        onResponseStart: (c, s, h, m) => {
          status = s;
          headers = h;
          inner.onResponseStart?.(c, s, h, m);
        },
        onResponseData: (c, chunk) => {
          chunks.push(Buffer.from(chunk));
          inner.onResponseData?.(c, chunk);
        },
        onResponseEnd: (c, t) => {
          finish();
          inner.onResponseEnd?.(c, t);
        },
        onResponseError: (c, e) => {
          finish(e);
          inner.onResponseError?.(c, e);
        },
      };
      return dispatch(opts, tap);
    };
  }
}
