import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { matchRoute, type RouteName } from '../acquirer/routes.js';
import { systemClock } from '../core/clock.js';
import { omniToken } from './auth.js';
import { SandboxClock } from './clock.js';
import { maybeCloseDay } from './close-day.js';
import { newUuid, type SandboxContext, type SandboxOptions } from './context.js';
import { control } from './controls.js';
import { openSandboxDatabase } from './db.js';
import { Faults } from './faults.js';
import { Refusal, type Answer, type SandboxRequest } from './http-kit.js';
import { confirmSale, createSale, getSale, getSaleByOrderId, undoSale, undoSaleByOrderId } from './sales.js';
import { confirmVoid, createVoid, getVoid, undoVoid } from './voids.js';
import { getInitialization, postInitialization } from './initialization.js';
import { cardBin, createEcommerceSale, getEcommerceSale, voidEcommerceSale } from './ecommerce.js';
import { WalletApi } from './wallet.js';
import { CallbackDeliverer } from './callbacks.js';
import { createMerchant, createTerminal, getMerchant, updateMerchant } from './registration.js';

type Handler = (ctx: SandboxContext, req: SandboxRequest) => Answer | Promise<Answer>;

/** Route name → handler. Routes without one answer 501 until their slice lands. */
const HANDLERS: Partial<Record<RouteName, Handler>> = {
  omniToken,
  saleCreate: createSale,
  saleGet: getSale,
  saleGetByOrderId: getSaleByOrderId,
  saleConfirm: confirmSale,
  saleUndo: undoSale,
  saleUndoByOrderId: undoSaleByOrderId,
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

/** A sandbox host built but not listening: `handle` is a node:http request listener. */
export interface Sandbox {
  readonly ctx: SandboxContext;
  readonly faults: Faults;
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** The address used in `Links` (set by `listenSandbox` unless the options gave one). */
  setPublicUrl(url: string): void;
  /** One delivery pass over queued wallet undo callbacks (also run on a timer). */
  deliverCallbacks(): Promise<void>;
  /** Closes held connections and the database. */
  close(): void;
}

function send(res: ServerResponse, ctx: SandboxContext, status: number, body: unknown, headers: Record<string, string> = {}): void {
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

/**
 * Builds the sandbox host (DESIGN.md: `buildApp(deps)` apart from `listen()`). State lives in
 * SQLite (`options.dbFile`) so a restart loses nothing. Every request is handled in full or
 * refused with the documented status; nothing a client sends can crash it.
 */
export function buildSandbox(options: SandboxOptions): Sandbox {
  const log = options.log.child({ component: 'sandbox' });
  const db = openSandboxDatabase(options.dbFile, log);
  const clock = new SandboxClock(options.clock ?? systemClock, db);
  let publicUrl = options.publicUrl ?? 'http://127.0.0.1';
  const ctx: SandboxContext = {
    db,
    clock,
    log,
    options: {
      outcomeAttempts: options.outcomeAttempts ?? 1,
      withholdMs: options.withholdMs ?? 40_000,
      tokenTtlSeconds: options.tokenTtlSeconds ?? 86_399,
      maxBodyBytes: options.maxBodyBytes ?? 256 * 1024,
      callbackRetryMs: options.callbackRetryMs ?? 5000,
      walletKeyTtlMs: options.walletKeyTtlMs ?? 3_600_000,
      qrValidityMs: options.qrValidityMs ?? 15 * 60_000,
      ...(options.walletCallbackUrl ? { walletCallbackUrl: options.walletCallbackUrl } : {}),
    },
    publicUrl: () => publicUrl,
    newId: newUuid,
  };
  const faults = new Faults(ctx, options.faults);
  const wallet = new WalletApi(ctx);
  const deliverer = new CallbackDeliverer(ctx);
  deliverer.start();
  const handlers: Partial<Record<RouteName, Handler>> = {
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

  async function process(req: IncomingMessage, res: ServerResponse, rawBody: Buffer): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const method = (req.method ?? 'GET').toUpperCase();
    const path = url.pathname;
    if (path === '/sandbox' || path.startsWith('/sandbox/')) {
      const answer = await run(() => control(ctx, faults, { method, path, query: url.searchParams, headers: req.headers, rawBody, route: { name: 'omniToken', params: {} } }));
      if ('withhold' in answer) return;
      send(res, ctx, answer.status, answer.body, answer.headers);
      return;
    }
    const match = matchRoute(method, path);
    if (!match) {
      send(res, ctx, 404, { ReturnCode: '404', ReturnMessage: `no resource ${method} ${path}` });
      return;
    }
    if ('allowed' in match) {
      send(res, ctx, 405, { ReturnCode: '405', ReturnMessage: `${method} is not allowed on ${path}` }, { allow: match.allowed.join(', ') });
      return;
    }
    const handler = handlers[match.name];
    if (!handler) {
      send(res, ctx, 501, { ReturnCode: '501', ReturnMessage: `${match.name} is not implemented by the sandbox yet` });
      return;
    }
    maybeCloseDay(ctx);
    const fault = faults.take(match.name);
    if (fault?.latencyMs) await delay(fault.latencyMs);
    if (fault?.status) {
      send(res, ctx, fault.status, { ReturnCode: String(fault.status), ReturnMessage: 'fault injected' });
      return;
    }
    if (fault?.reset === 'before') {
      req.socket.destroy();
      return;
    }
    const answer = await run(() => handler(ctx, { method, path, query: url.searchParams, headers: req.headers, rawBody, route: match }));
    if (fault?.reset === 'after') {
      req.socket.destroy();
      return;
    }
    if (fault?.drop || 'withhold' in answer) {
      hold(res);
      return;
    }
    send(res, ctx, answer.status, answer.body, answer.headers);
  }

  async function run(fn: () => Answer | Promise<Answer>): Promise<Answer> {
    try {
      return await fn();
    } catch (e) {
      if (e instanceof Refusal) return e.answer;
      log.error({ err: e }, 'sandbox handler failed');
      return { status: 500, body: { ReturnCode: '500', ReturnMessage: 'Erro interno do sandbox' } };
    }
  }

  return {
    ctx,
    faults,
    setPublicUrl(u) {
      if (!options.publicUrl) publicUrl = u;
    },
    handle(req, res) {
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
          const text = `body larger than ${ctx.options.maxBodyBytes} bytes`;
          const walletPath = /^\/(padraoq|v2\/oauth)\//.test(req.url ?? '');
          if (!tooBig) send(res, ctx, 413, walletPath ? { description: text } : { ReturnCode: '413', ReturnMessage: text }, { connection: 'close' });
          tooBig = true;
          return;
        }
        chunks.push(c);
      });
      req.on('end', () => {
        if (tooBig) return;
        process(req, res, Buffer.concat(chunks)).catch((e: unknown) => {
          log.error({ err: e }, 'sandbox request failed');
          send(res, ctx, 500, { ReturnCode: '500', ReturnMessage: 'Erro interno do sandbox' });
        });
      });
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

/** A listening sandbox host. */
export interface RunningSandbox {
  readonly url: string;
  readonly port: number;
  readonly sandbox: Sandbox;
  readonly server: Server;
  close(): Promise<void>;
}

/** Listens on `host:port` (loopback by default; port 0 picks a free one). */
export async function listenSandbox(sandbox: Sandbox, opts: { port?: number; host?: string } = {}): Promise<RunningSandbox> {
  const server = createServer((req, res) => sandbox.handle(req, res));
  server.keepAliveTimeout = 5000;
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host}:${port}`;
  sandbox.setPublicUrl(url);
  return {
    url,
    port,
    sandbox,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          sandbox.close();
          resolve();
        });
      }),
  };
}
