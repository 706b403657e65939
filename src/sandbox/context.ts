import { randomUUID } from 'node:crypto';
import type { Clock, Logger } from '../core/index.js';
import type { SandboxClock } from './clock.js';
import type { Db } from './db.js';
import type { Scenario } from './scenario.js';
import { pathOf, ROUTE_BASE, type SandboxBase, type SandboxRouteName } from './routes.js';

/** A fault for one route (by route name, e.g. `saleCreate`), applied to the next `times` requests. */
export interface FaultSpec {
  /** Wait this long before handling, ms. */
  latencyMs?: number;
  /** Answer this 5xx status without handling. */
  status?: number;
  /** Drop the connection before handling (`before`) or after the request was recorded (`after`). */
  reset?: 'before' | 'after';
  /** Handle (record) the request, then never answer. */
  drop?: boolean;
  /**
   * Answer this published error instead (an API number such as 309, or a wallet code such as
   * "422.002"), in the route's own shape; `errorStatus` sets the HTTP status (default 400, or
   * the wallet table's). Lets a test prove the client decides on nothing it does not know.
   */
  error?: number | string;
  errorStatus?: number;
  /** With `error`: the host does the work (records the sale, the undo…) and then answers the error. */
  handled?: boolean;
  /** How many requests it applies to (default 1). */
  times?: number;
}

/** Options of the sandbox host (units beside each). */
export interface SandboxOptions {
  /** The host's SQLite file (its own, not the terminal's). */
  dbFile: string;
  log: Logger;
  /** Base clock; the host adds the offset set by `POST /sandbox/clock`. Default: system time. */
  clock?: Clock;
  /**
   * A cents-chosen outcome applies to the first N attempts only (the `first-n` scenario). Without
   * it the outcome repeats on every attempt, as the public sandbox does (the `repeat` scenario).
   */
  outcomeAttempts?: number;
  /** The scenario to start with (the database's, when it has one, is kept otherwise). */
  scenario?: Partial<Scenario>;
  /** How long the "timeout" outcome and a dropped answer hold the connection before closing it, ms (default 40 000, above the client's 30 s). */
  withholdMs?: number;
  /** Lifetime of the tokens it issues, s (default 86 399, as the manual shows). */
  tokenTtlSeconds?: number;
  /** The addresses printed in `Links`, per base (default: where each base listens). */
  publicUrls?: Partial<Record<SandboxBase, string>>;
  /** Faults set at start, by route name. */
  faults?: Readonly<Record<string, FaultSpec>>;
  /** Largest request body accepted, bytes (default 256 KiB). */
  maxBodyBytes?: number;
  /** The partner URL that receives the wallet undo callback (statusCode 3); none by default. */
  walletCallbackUrl?: string;
  /** Pause between deliveries of an undelivered callback, ms (default 5000). */
  callbackRetryMs?: number;
  /** Lifetime of a wallet RSA key, ms (default one hour); an expired key_id gets 412 001. */
  walletKeyTtlMs?: number;
  /** How long a QR code stays payable after its 81.01 time, ms (default 15 minutes). */
  qrValidityMs?: number;
}

/** What the handlers share. */
export interface SandboxContext {
  db: Db;
  clock: SandboxClock;
  log: Logger;
  options: Required<
    Pick<
      SandboxOptions,
      'withholdMs' | 'tokenTtlSeconds' | 'maxBodyBytes' | 'callbackRetryMs' | 'walletKeyTtlMs' | 'qrValidityMs'
    >
  > &
    Pick<SandboxOptions, 'walletCallbackUrl'>;
  /** The address of a base's listener, for Links. */
  publicUrl(base: SandboxBase): string;
  newId(): string;
}

export function ledgerEntry(
  ctx: SandboxContext,
  e: { kind: string; paymentId?: string; merchantOrderId?: string; voidId?: string; amount?: number; note?: string },
): void {
  ctx.db
    .prepare(
      `INSERT INTO ledger (at, kind, payment_id, merchant_order_id, void_id, amount, note) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      ctx.clock.now().getTime(),
      e.kind,
      e.paymentId ?? null,
      e.merchantOrderId ?? null,
      e.voidId ?? null,
      e.amount ?? 0,
      e.note ?? null,
    );
}

export function problem(
  ctx: SandboxContext,
  e: { kind: string; merchantOrderId?: string; paymentId?: string; detail: string },
): void {
  ctx.log.warn({ problem: e.kind, merchantOrderId: e.merchantOrderId }, e.detail);
  ctx.db
    .prepare(`INSERT INTO problems (at, kind, merchant_order_id, payment_id, detail) VALUES (?, ?, ?, ?, ?)`)
    .run(ctx.clock.now().getTime(), e.kind, e.merchantOrderId ?? null, e.paymentId ?? null, e.detail);
}

/** Counts one attempt of a cents-chosen outcome; true while the first N attempts last. */
export function withinAttempts(ctx: SandboxContext, key: string, n: number): boolean {
  const row = ctx.db.prepare(`SELECT count FROM attempts WHERE key = ?`).get(key) as { count: number } | undefined;
  const count = (row?.count ?? 0) + 1;
  ctx.db
    .prepare(`INSERT INTO attempts (key, count) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET count = excluded.count`)
    .run(key, count);
  return count <= n;
}

export const newUuid = (): string => randomUUID();

/** The absolute address of a route on its own base, for `Links`. */
export function linkTo(ctx: SandboxContext, name: SandboxRouteName, params: Record<string, string>): string {
  return `${ctx.publicUrl(ROUTE_BASE[name])}${pathOf(name, params)}`;
}
