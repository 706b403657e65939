import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { systemClock } from '../core/index.js';
import { omniToken } from './auth.js';
import { SandboxClock } from './clock.js';
import { maybeCloseDay } from './close-day.js';
import { newUuid, problem, type SandboxContext, type SandboxOptions } from './context.js';
import { control } from './controls.js';
import { openSandboxDatabase } from './db.js';
import { apiEntry, hostError, walletError } from './errors.js';
import { Faults } from './faults.js';
import { setScenario, validateScenario, type Scenario } from './scenario.js';
import { Refusal, type Answer, type SandboxRequest } from './http-kit.js';
import {
  BASE_SOURCES,
  matchOn,
  SANDBOX_BASES,
  SHARED_HOST,
  type SandboxBase,
  type SandboxRouteName,
} from './routes.js';
import { confirmSale, createSale, getSale, getSaleByOrderId, undoSale, undoSaleByOrderId } from './sales.js';
import { confirmVoid, createVoid, getVoid, undoVoid } from './voids.js';
import { getInitialization, postInitialization } from './initialization.js';
import { cardBin, createEcommerceSale, getEcommerceSale, voidEcommerceSale } from './ecommerce.js';
import { WalletApi } from './wallet.js';
import { CallbackDeliverer } from './callbacks.js';
import { createMerchant, createTerminal, getMerchant, updateMerchant } from './registration.js';

type Handler = (ctx: SandboxContext, req: SandboxRequest) => Answer | Promise<Answer>;

const HANDLERS: Partial<Record<SandboxRouteName, Handler>> = {
  omniToken,
  saleCreate: createSale,
  saleGet: getSale,
  saleGetByOrderId: getSaleByOrderId,
  saleConfirm: confirmSale,
  saleUndo: undoSale,
  saleUndoByOrderId: undoSaleByOrderId,
  saleUndoPut: undoSale,
  saleUndoByOrderIdPut: undoSaleByOrderId,
  voidCreate: createVoid,
  voidConfirm: confirmVoid,
  voidUndo: undoVoid,
  voidUndoByMerchantVoidId: undoVoid,
  voidGet: getVoid,
  initialization: getInitialization,
  initializationTechnical: postInitialization,
  merchantCreate: createMerchant,
  merchantGet: getMerchant,
  merchantUpdate: updateMerchant,
  terminalCreate: createTerminal,
  ecommerceSaleCreate: createEcommerceSale,
  ecommerceSaleGet: getEcommerceSale,
  ecommerceSaleVoid: voidEcommerceSale,
  ecommerceCardBin: cardBin,
};

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
      if (path.toLowerCase() !== prefix.toLowerCase() && !path.toLowerCase().startsWith(`${prefix.toLowerCase()}/`)) {
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

  /** True when the refusal is about the request's form (a field), not the state of a sale (302, 307-310, 318). */
  function malformed(body: unknown): boolean {
    const list = Array.isArray(body) ? body : [body];
    return list.some((e) => {
      if (!e || typeof e !== 'object') return false;
      const code = (e as Record<string, unknown>).Code ?? (e as Record<string, unknown>).code;
      if (typeof code === 'string') return code.startsWith('412.1');
      return typeof code === 'number' && ![302, 303, 307, 308, 309, 310, 318].includes(code);
    });
  }

  function refusalText(body: unknown): string {
    const list = Array.isArray(body) ? body : [body];
    return list
      .map((e) => {
        if (!e || typeof e !== 'object') return '';
        const r = e as Record<string, unknown>;
        const text = r.Message ?? r.description ?? r.error;
        return typeof text === 'string' ? text : '';
      })
      .join(' | ')
      .slice(0, 600);
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

/** A listening sandbox host: the controls address and one address per base. */
export interface RunningSandbox {
  /** The controls listener (`/sandbox/…`): not part of the acquirer's API. */
  readonly url: string;
  readonly port: number;
  /** Each base's address, with the path prefix the manual's URL carries (parameters: `/api/v0.1`). */
  readonly urls: Readonly<Record<SandboxBase, string>>;
  readonly ports: Readonly<Record<SandboxBase, number>>;
  readonly sandbox: Sandbox;
  readonly server: Server;
  close(): Promise<void>;
}

export interface ListenOptions {
  /** The controls listener's port (0: a free one). */
  port?: number;
  host?: string;
  /** Each base's port (0 or absent: a free one). */
  ports?: Partial<Record<SandboxBase, number>>;
}

async function listenOne(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  port: number,
  host: string,
): Promise<Server> {
  const server = createServer(handler);
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

/** Listens on `host` (loopback by default): the controls on `port`, each base on its own port. */
export async function listenSandbox(sandbox: Sandbox, opts: ListenOptions = {}): Promise<RunningSandbox> {
  const host = opts.host ?? '127.0.0.1';
  const servers: Server[] = [];
  try {
    const controls = await listenOne(sandbox.listener('controls'), opts.port ?? 0, host);
    servers.push(controls);
    const urls = {} as Record<SandboxBase, string>;
    const ports = {} as Record<SandboxBase, number>;
    for (const base of SANDBOX_BASES) {
      const s = await listenOne(sandbox.listener(base), opts.ports?.[base] ?? 0, host);
      servers.push(s);
      ports[base] = (s.address() as AddressInfo).port;
      urls[base] = `http://${host}:${ports[base]}${BASE_SOURCES[base].prefix}`;
    }
    sandbox.setPublicUrls(Object.fromEntries(SANDBOX_BASES.map((b) => [b, `http://${host}:${ports[b]}`])));
    const { port } = controls.address() as AddressInfo;
    return {
      url: `http://${host}:${port}`,
      port,
      urls,
      ports,
      sandbox,
      server: controls,
      close: async () => {
        await Promise.all(servers.map(closeServer));
        sandbox.close();
      },
    };
  } catch (e) {
    await Promise.all(servers.map(closeServer));
    throw e;
  }
}
