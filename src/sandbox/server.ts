import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { hostName, isAllowedHost, systemClock } from '../core/index.js';
import { SandboxClock } from './clock.js';
import { maybeCloseDay } from './close-day.js';
import { newUuid, problem, type SandboxContext, type SandboxOptions } from './context.js';
import { control } from './controls.js';
import { openSandboxDatabase } from './db.js';
import { apiEntry, hostError, walletError } from './errors.js';
import { Faults } from './faults.js';
import { setScenario, validateScenario, type Scenario } from './scenario.js';
import { Refusal, type Answer } from './http-kit.js';
import { BASE_SOURCES, matchOn, SHARED_HOST, type SandboxBase, type SandboxRouteName } from './routes.js';
import { WalletApi } from './wallet.js';
import { CallbackDeliverer } from './callbacks.js';
import { HANDLERS, type Handler } from './handlers.js';
import { malformed, refusalText } from './refused-requests.js';

/** What a listener serves: one base of the acquirer (with its same-host twin), or the sandbox's own controls. */
export type Listener = SandboxBase | 'controls';

/** A sandbox host built but not listening: `listener(x)` is the node:http request listener of one address. */
export interface Sandbox {
  readonly ctx: SandboxContext;
  readonly faults: Faults;
  listener(which: Listener): (req: IncomingMessage, res: ServerResponse) => void;
  /** The address of each base, used in `Links` (set by `listenSandbox`). */
  setPublicUrls(urls: Partial<Record<SandboxBase, string>>): void;
  /** One delivery pass over queued wallet undo callbacks (also run on a timer). */
  deliverCallbacks(): Promise<void>;
  /** Closes held connections and the database. */
  close(): void;
}

function send(
  res: ServerResponse,
  ctx: SandboxContext,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, {
    date: ctx.clock.now().toUTCString(),
    ...(text !== '' ? { 'content-type': 'application/json; charset=utf-8' } : {}),
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** The published error a fault asks for, in the shape of the route's API. */
function faultError(
  base: SandboxBase,
  code: number | string,
  status: number | undefined,
): { status: number; body: unknown } {
  if (base === 'wallet') {
    const r = walletError(String(code), undefined, status).answer;
    return { status: r.status, body: r.body };
  }
  return { status: status ?? 400, body: [apiEntry(Number(code))] };
}

/**
 * The request target as a URL. `new URL('//', base)` reads `//` as a host and throws (the fuzz
 * campaign's sandbox crash: `GET //` answered 500); an origin-form target is a path, whatever it
 * starts with. Undefined for a target no URL parser reads (400).
 */
function requestUrl(target: string | undefined): URL | undefined {
  const t = target ?? '/';
  try {
    return t.startsWith('/') ? new URL(`http://sandbox${t}`) : new URL(t, 'http://sandbox');
  } catch {
    return undefined;
  }
}

/**
 * Builds the sandbox host (docs/architecture.md, "Ports and adapters": built apart from `listen()`). State lives in
 * SQLite (`options.dbFile`) so a restart loses nothing. Every request is handled in full or
 * refused as the host refuses it; nothing a client sends can crash it. Each base address of the
 * acquirer is its own listener (src/sandbox/routes.ts): a path sent to the wrong one is unknown there.
 */
export function buildSandbox(options: SandboxOptions): Sandbox {
  const log = options.log.child({ component: 'sandbox' });
  const db = openSandboxDatabase(options.dbFile, log);
  const clock = new SandboxClock(options.clock ?? systemClock, db);
  const publicUrls: Partial<Record<SandboxBase, string>> = { ...options.publicUrls };
  // The controls answer a loopback Host, or the name the host is reached by (its addresses' names).
  const controlHosts = new Set<string>();
  const addControlHosts = (urls: Iterable<string>): void => {
    for (const u of urls) {
      const name = hostName(URL.canParse(u) ? new URL(u).host : undefined);
      if (name !== undefined && name !== '0.0.0.0' && name !== '::') controlHosts.add(name);
    }
  };
  addControlHosts(Object.values(publicUrls));
  const ctx: SandboxContext = {
    db,
    clock,
    log,
    options: {
      withholdMs: options.withholdMs ?? 40_000,
      tokenTtlSeconds: options.tokenTtlSeconds ?? 86_399,
      maxBodyBytes: options.maxBodyBytes ?? 256 * 1024,
      callbackRetryMs: options.callbackRetryMs ?? 5000,
      walletKeyTtlMs: options.walletKeyTtlMs ?? 3_600_000,
      qrValidityMs: options.qrValidityMs ?? 15 * 60_000,
      ...(options.walletCallbackUrl ? { walletCallbackUrl: options.walletCallbackUrl } : {}),
    },
    publicUrl: (base) => publicUrls[base] ?? `${BASE_SOURCES[base].host}`,
    newId: newUuid,
  };
  const faults = new Faults(ctx, options.faults);
  const start: Partial<Scenario> = {
    ...(options.outcomeAttempts !== undefined ? { outcomes: 'first-n', firstN: options.outcomeAttempts } : {}),
    ...options.scenario,
  };
  if (Object.keys(start).length > 0) setScenario(ctx, validateScenario(start));
  const wallet = new WalletApi(ctx);
  const deliverer = new CallbackDeliverer(ctx);
  deliverer.start();
  const handlers: Partial<Record<SandboxRouteName, Handler>> = {
    ...HANDLERS,
    walletTokenJson: (_c, r) => wallet.token(r, false),
    walletTokenForm: (_c, r) => wallet.token(r, true),
    walletPublicKey: (_c, r) => wallet.publicKey(r),
    walletParseQr: (_c, r) => wallet.parse(r),
    walletCardPayment: (_c, r) => wallet.pay(r),
  };
  const held = new Set<ServerResponse>();
  let closed = false;

  function hold(res: ServerResponse): void {
    held.add(res);
    const t = setTimeout(() => {
      held.delete(res);
      res.socket?.destroy();
    }, ctx.options.withholdMs);
    res.on('close', () => {
      clearTimeout(t);
      held.delete(res);
    });
  }

  async function processControls(req: IncomingMessage, res: ServerResponse, rawBody: Buffer): Promise<void> {
    // The controls hand out the test credentials and move the clock: only for a loopback Host (DNS rebinding).
    if (!isAllowedHost(req.headers.host, controlHosts)) {
      send(res, ctx, 421, { error: 'this sandbox host does not answer for that Host' });
      return;
    }
    const url = requestUrl(req.url);
    if (!url) {
      send(res, ctx, 400, undefined);
      return;
    }
    const method = (req.method ?? 'GET').toUpperCase();
    const path = url.pathname;
    if (path !== '/sandbox' && !path.startsWith('/sandbox/')) {
      send(res, ctx, 404, undefined);
      return;
    }
    const answer = await run(() =>
      control(ctx, faults, {
        method,
        path,
        query: url.searchParams,
        headers: req.headers,
        rawBody,
        route: { name: 'omniToken', base: 'authorization', params: {} },
      }),
    );
    if ('withhold' in answer) return;
    send(res, ctx, answer.status, answer.body, answer.headers);
  }

  async function processApi(
    bases: readonly SandboxBase[],
    req: IncomingMessage,
    res: ServerResponse,
    rawBody: Buffer,
  ): Promise<void> {
    const url = requestUrl(req.url);
    if (!url) {
      send(res, ctx, 400, undefined);
      return;
    }
    const method = (req.method ?? 'GET').toUpperCase();
    const prefix = BASE_SOURCES[bases[0] as SandboxBase].prefix;
    let path = url.pathname;
    if (prefix !== '') {
      if (path !== prefix && !path.startsWith(`${prefix}/`)) {
        send(res, ctx, 404, undefined);
        return;
      }
      path = path.slice(prefix.length) || '/';
    }
    const match = matchOn(bases, method, path);
    // The host's unknown path: 404 with no body (a path on the wrong base lands here too).
    if (!match) {
      send(res, ctx, 404, undefined);
      return;
    }
    if ('allowed' in match) {
      send(res, ctx, 405, undefined, { allow: match.allowed.join(', ') });
      return;
    }
    const handler = handlers[match.name];
    if (!handler) {
      send(res, ctx, 404, undefined);
      return;
    }
    maybeCloseDay(ctx);
    const fault = faults.take(match.name);
    if (fault?.latencyMs) await delay(fault.latencyMs);
    if (fault?.status) {
      send(res, ctx, fault.status, [apiEntry(0)]);
      return;
    }
    if (fault?.error !== undefined && !fault.handled) {
      const e = faultError(match.base, fault.error, fault.errorStatus);
      send(res, ctx, e.status, e.body);
      return;
    }
    if (fault?.reset === 'before') {
      req.socket.destroy();
      return;
    }
    const answer = await run(() =>
      handler(ctx, { method, path, query: url.searchParams, headers: req.headers, rawBody, route: match }),
    );
    if (fault?.reset === 'after') {
      req.socket.destroy();
      return;
    }
    if (fault?.error !== undefined) {
      const e = faultError(match.base, fault.error, fault.errorStatus);
      send(res, ctx, e.status, e.body);
      return;
    }
    if (fault?.drop || 'withhold' in answer) {
      hold(res);
      return;
    }
    // A request the host refuses as malformed is named in the ledger (a client that sends one has a bug).
    if ((answer.status === 400 || answer.status === 415) && malformed(answer.body)) {
      problem(ctx, { kind: 'refused-request', detail: `${match.name}: ${refusalText(answer.body)}` });
    }
    send(res, ctx, answer.status, answer.body, answer.headers);
  }

  async function run(fn: () => Answer | Promise<Answer>): Promise<Answer> {
    try {
      return await fn();
    } catch (e) {
      if (e instanceof Refusal) return e.answer;
      log.error({ err: e }, 'sandbox handler failed');
      return hostError();
    }
  }

  function listener(which: Listener): (req: IncomingMessage, res: ServerResponse) => void {
    const twin = which === 'controls' ? undefined : SHARED_HOST[which];
    const bases: SandboxBase[] = which === 'controls' ? [] : twin ? [which, twin] : [which];
    return (req, res) => {
      req.on('error', () => res.destroy());
      res.on('error', () => undefined);
      if (closed) {
        res.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      let tooBig = false;
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (size > ctx.options.maxBodyBytes) {
          if (!tooBig) send(res, ctx, 413, undefined, { connection: 'close' });
          tooBig = true;
          return;
        }
        chunks.push(c);
      });
      req.on('end', () => {
        if (tooBig) return;
        const body = Buffer.concat(chunks);
        const work = which === 'controls' ? processControls(req, res, body) : processApi(bases, req, res, body);
        work.catch((e: unknown) => {
          log.error({ err: e }, 'sandbox request failed');
          const h = hostError();
          send(res, ctx, h.status, h.body);
        });
      });
    };
  }

  return {
    ctx,
    faults,
    listener,
    setPublicUrls(urls) {
      for (const [b, u] of Object.entries(urls) as [SandboxBase, string][])
        if (!options.publicUrls?.[b]) publicUrls[b] = u;
      addControlHosts(Object.values(urls));
    },
    deliverCallbacks: () => deliverer.deliverNow(),
    close() {
      closed = true;
      deliverer.stop();
      for (const r of held) r.socket?.destroy();
      held.clear();
      db.close();
    },
  };
}
