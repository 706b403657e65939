/**
 * Puts the contract check (./contract.ts) in front of every HTTP answer a test receives: an undici
 * interceptor on the global dispatcher, which both `fetch` and undici's `request` go through. The
 * answer reaches the test unchanged; its check is kept in `pending` until the test ends
 * (test/setup/contract.ts fails the test on a mismatch).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { DecoratorHandler, getGlobalDispatcher, setGlobalDispatcher, type Dispatcher } from 'undici';
import { checkAnswer, checkEvent, eventStreamParser, operationOf, tally } from './contract.js';

/** Checks still running; awaited before a test's mismatches are read. */
export const pending = new Set<Promise<void>>();

function track(p: Promise<void>): void {
  // A check that cannot run (the document does not load, a schema does not compile) is a failure too.
  const held = p
    .catch((e: unknown) => void tally.failures.push(`the contract check failed: ${String(e)}`))
    .finally(() => pending.delete(held));
  pending.add(held);
}

const headerOf = (headers: IncomingHttpHeaders, name: string): string => {
  const v = headers[name];
  return (Array.isArray(v) ? v[0] : v) ?? '';
};

/** undici's DecoratorHandler forwards to a handler of either API (legacy `onData` or `onResponseData`); its types omit the methods. */
interface Forwarder {
  onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: IncomingHttpHeaders,
    statusMessage?: string,
  ): void;
  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void;
  onResponseEnd(controller: Dispatcher.DispatchController, trailers: IncomingHttpHeaders): void;
}
const Forwarding = DecoratorHandler as unknown as new (handler: Dispatcher.DispatchHandler) => Forwarder;

class CheckingHandler extends Forwarding {
  #method: string;
  #pathname: string;
  #status = 0;
  #json: Buffer[] | undefined;
  #events: ((text: string) => void) | undefined;
  #decoder = new TextDecoder();

  constructor(handler: Dispatcher.DispatchHandler, method: string, pathname: string) {
    super(handler);
    this.#method = method;
    this.#pathname = pathname;
  }

  override onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: IncomingHttpHeaders,
    statusMessage?: string,
  ): void {
    this.#status = statusCode;
    const type = headerOf(headers, 'content-type').split(';')[0]?.trim().toLowerCase();
    if (type === 'application/json') this.#json = [];
    else if (type === 'text/event-stream' && statusCode === 200)
      this.#events = eventStreamParser((block) => track(checkEvent(block)));
    return super.onResponseStart(controller, statusCode, headers, statusMessage);
  }

  override onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#json?.push(chunk);
    this.#events?.(this.#decoder.decode(chunk, { stream: true }));
    return super.onResponseData(controller, chunk);
  }

  override onResponseEnd(controller: Dispatcher.DispatchController, trailers: IncomingHttpHeaders): void {
    if (this.#json)
      track(checkAnswer(this.#method, this.#pathname, this.#status, Buffer.concat(this.#json).toString('utf8')));
    return super.onResponseEnd(controller, trailers);
  }
}

let installed = false;

/** Installs the check on the global dispatcher once per test process. */
export function installContractHook(): void {
  if (installed) return;
  installed = true;
  const checking: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (opts, handler) => {
    const pathname = (opts.path ?? '/').split('?')[0] ?? '/';
    const method = opts.method ?? 'GET';
    if (!operationOf(method, pathname)) return dispatch(opts, handler);
    return dispatch(opts, new CheckingHandler(handler, method, pathname));
  };
  setGlobalDispatcher(getGlobalDispatcher().compose(checking));
}
