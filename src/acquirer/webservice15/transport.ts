import { createRequire } from 'node:module';
import type { Dispatcher } from 'undici';
import type * as UndiciModule from 'undici';
import { xmlDeclaredEncoding } from '../../core/index.js';
import type { Logger } from '../../core/log/index.js';
import { transportFailure } from '../http.js';
import type { Ws15Exchange } from './outcomes.js';

const load = createRequire(import.meta.url);
const undici = (): typeof UndiciModule => load('undici') as typeof UndiciModule;

export interface Ws15TransportOptions {
  /** The endpoint, `https://…/servicos/ecommwsec.do` (ws15:263-269, 1500). */
  url: string;
  /** Per call, ms: the manual recommends 30 s, above the service's own 25 s (ws15:247, 775). */
  timeoutMs: number;
  dispatcher?: Dispatcher;
  log: Logger;
}

/**
 * `application/x-www-form-urlencoded` with one field, `mensagem`, in ISO-8859-1 (ws15:263-269):
 * each byte of the Latin-1 message percent-encoded (a JavaScript `URLSearchParams` would encode
 * UTF-8). The XML writer leaves no character outside Latin-1 (core/xml.ts `writeXml`).
 */
export function formBody(message: string): Buffer {
  const bytes = Buffer.from(message, 'latin1');
  let out = 'mensagem=';
  for (const b of bytes) {
    const c = String.fromCharCode(b);
    out += /[A-Za-z0-9*\-._]/.test(c) ? c : b === 0x20 ? '+' : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return Buffer.from(out, 'latin1');
}

/** The answer's text: UTF-8 when its header or its declaration says so, ISO-8859-1 otherwise (ws15:428). */
export function answerText(bytes: Buffer, contentType: string | undefined): string {
  const header = /charset\s*=\s*"?([A-Za-z0-9._-]+)/i.exec(contentType ?? '')?.[1];
  const declared = xmlDeclaredEncoding(bytes.subarray(0, 200).toString('latin1'));
  const charset = (header ?? declared ?? 'ISO-8859-1').toLowerCase();
  return charset === 'utf-8' || charset === 'utf8' ? bytes.toString('utf8') : bytes.toString('latin1');
}

/** Posts one message; never repeats it (a sale, a capture or a cancellation is never sent twice). */
export class Ws15Transport {
  readonly #o: Ws15TransportOptions;
  #dispatcher: Dispatcher | undefined;

  constructor(options: Ws15TransportOptions) {
    this.#o = options;
    this.#dispatcher = options.dispatcher;
  }

  async post(message: string, what: string): Promise<Ws15Exchange> {
    const signal = AbortSignal.timeout(this.#o.timeoutMs);
    const started = Date.now();
    try {
      const res = await undici().request(this.#o.url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded; charset=ISO-8859-1', accept: 'application/xml' },
        body: formBody(message),
        dispatcher: (this.#dispatcher ??= new (undici().Agent)({ keepAliveTimeout: 10_000 })),
        signal,
        headersTimeout: this.#o.timeoutMs,
        bodyTimeout: this.#o.timeoutMs,
      });
      const bytes = Buffer.from(await res.body.arrayBuffer());
      const ct = res.headers['content-type'];
      this.#o.log.debug({ route: what, status: res.statusCode, ms: Date.now() - started }, 'webservice 1.5 answer');
      return {
        kind: 'answer',
        status: res.statusCode,
        text: answerText(bytes, typeof ct === 'string' ? ct : undefined),
      };
    } catch (e) {
      const failure = transportFailure(e, signal.aborted);
      this.#o.log.warn({ route: what, failure }, 'webservice 1.5 exchange failed');
      return { kind: 'transport', failure };
    }
  }

  /** Closes the private dispatcher (not one that was injected). */
  async close(): Promise<void> {
    if (!this.#o.dispatcher) await this.#dispatcher?.close();
  }
}
