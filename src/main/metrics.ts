import diagnostics from 'node:diagnostics_channel';
import type { Config } from '../config/index.js';
import type { HostOperation } from '../engine/index.js';
import { paymentMethod, TerminalMetrics, type MetricsSources } from '../fleet/index.js';
import type { Journal } from '../store/index.js';
import { hostOperationOf } from '../factory/index.js';
import { acquirerUrls } from '../factory/index.js';
import type { RunningSandbox } from '../sandbox/index.js';

interface UndiciRequest {
  origin?: unknown;
  method?: unknown;
  path?: unknown;
}

/**
 * GET /metrics's collector, wired to the daemon: payments from the event hub, the host's latency
 * from undici's diagnostics channels (requests to this terminal's acquirer addresses, named by the
 * engine's operation: `sale`, `confirm`, `undo`, `query`…, as the configured backend maps its
 * requests, src/factory/acquirer-backend.ts `hostOperationOf`), the pinpad's link events.
 */
export function startMetrics(d: {
  config: Config;
  sandbox: RunningSandbox | undefined;
  journal: Journal;
  events: { subscribe(l: (e: { type: string; id: number; status?: string; kind?: string }) => void): () => void };
  pinpad: {
    on(event: 'link', l: (e: { state: string; reason?: unknown }) => void): unknown;
    off(event: 'link', l: (e: { state: string; reason?: unknown }) => void): unknown;
  };
  sources: MetricsSources;
}): { metrics: TerminalMetrics; stop(): void } {
  const metrics = new TerminalMetrics(d.sources);
  const unsubscribe = d.events.subscribe((e) => {
    if (e.type !== 'state') return;
    const entry = d.journal.get(e.id);
    const method = entry ? paymentMethod(entry) : undefined;
    metrics.onEvent(e, method);
  });
  const onLink = (e: { state: string; reason?: unknown }): void => metrics.pinpadLink(e);
  d.pinpad.on('link', onLink);

  const origins = new Set(Object.values(acquirerUrls(d.config, d.sandbox)).map((u) => new URL(u).origin));
  const started = new WeakMap<object, number>();
  const operationOf = hostOperationOf(d.config);
  const operation = (r: UndiciRequest): HostOperation => {
    const path = typeof r.path === 'string' ? (r.path.split('?')[0] ?? '') : '';
    return operationOf(typeof r.method === 'string' ? r.method : 'GET', path);
  };
  const mine = (r: UndiciRequest): boolean => typeof r.origin === 'string' && origins.has(r.origin.replace(/\/$/, ''));
  const onCreate = (msg: unknown): void => {
    const r = (msg as { request: UndiciRequest }).request;
    if (mine(r)) started.set(r, performance.now());
  };
  const settle =
    (outcome: 'answer' | 'error') =>
    (msg: unknown): void => {
      const r = (msg as { request: UndiciRequest }).request;
      const t = started.get(r);
      if (t === undefined) return;
      started.delete(r);
      metrics.hostAnswered(operation(r), (performance.now() - t) / 1000, outcome);
    };
  const onHeaders = settle('answer');
  const onError = settle('error');
  diagnostics.subscribe('undici:request:create', onCreate);
  diagnostics.subscribe('undici:request:headers', onHeaders);
  diagnostics.subscribe('undici:request:error', onError);
  return {
    metrics,
    stop() {
      unsubscribe();
      d.pinpad.off('link', onLink);
      diagnostics.unsubscribe('undici:request:create', onCreate);
      diagnostics.unsubscribe('undici:request:headers', onHeaders);
      diagnostics.unsubscribe('undici:request:error', onError);
    },
  };
}
