import { createRequire } from 'node:module';
import type * as UndiciModule from 'undici';
import { SANDBOX_MERCHANT } from '../../tables/sandbox-merchant.js';
import type { SandboxContext } from './context.js';

/** undici's request API loads at the first callback sent, not when the embedded sandbox starts (fast start). */
const undici = (): typeof UndiciModule => createRequire(import.meta.url)('undici') as typeof UndiciModule;

/** The wallet document's undo callback payload (000, "Undo callback payload"). */
export interface UndoCallback {
  transactionDate: string;
  terminalLogicalNumber: string;
  authorizationCode: string;
  nsu: string;
  merchantId: number;
  amount: number;
  originalTransactionType: number;
  statusCode: 3;
}

/** Queues the callback when a partner URL is configured (kept in SQLite until delivered). */
export function enqueueCallback(ctx: SandboxContext, payload: UndoCallback): void {
  const url = ctx.options.walletCallbackUrl;
  if (!url) return;
  ctx.db.prepare(`INSERT INTO callbacks (url, payload) VALUES (?, ?)`).run(url, JSON.stringify(payload));
}

/**
 * Delivers queued callbacks: `POST` with the JSON body, retried every `callbackRetryMs`
 * until the partner answers 2xx (docs/acquirer.md, "Wallet QR codes").
 */
export class CallbackDeliverer {
  readonly #ctx: SandboxContext;
  #timer: NodeJS.Timeout | undefined;
  #running = false;

  constructor(ctx: SandboxContext) {
    this.#ctx = ctx;
  }

  start(): void {
    this.#timer = setInterval(() => void this.deliverNow(), this.#ctx.options.callbackRetryMs);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** One pass over the undelivered callbacks. */
  async deliverNow(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    try {
      const rows = this.#ctx.db
        .prepare(`SELECT id, url, payload FROM callbacks WHERE delivered_at IS NULL ORDER BY id`)
        .all() as { id: number; url: string; payload: string }[];
      for (const r of rows) {
        let error: string | null = null;
        try {
          const res = await undici().request(r.url, {
            method: 'POST',
            body: r.payload,
            headers: { 'content-type': 'application/json' },
            headersTimeout: 5000,
            bodyTimeout: 5000,
          });
          await res.body.dump();
          if (res.statusCode < 200 || res.statusCode >= 300) error = `HTTP ${res.statusCode}`;
        } catch (e) {
          error = (e as Error).message;
        }
        try {
          this.#ctx.db
            .prepare(`UPDATE callbacks SET attempts = attempts + 1, delivered_at = ?, last_error = ? WHERE id = ?`)
            .run(error === null ? this.#ctx.clock.now().getTime() : null, error, r.id);
        } catch {
          return; // the database closed while delivering
        }
      }
    } finally {
      this.#running = false;
    }
  }
}

/** The wallet undo callback of a paid QR sale (000, "Undo callback payload", statusCode 3). */
export function undoCallback(row: {
  readonly answer: string;
  readonly created_at: number;
  readonly terminal_id: string;
  readonly amount: number;
}): UndoCallback {
  const p = (
    JSON.parse(row.answer) as {
      Payment: { AuthorizationCode?: string; ProofOfSale?: string; Wallet?: { QrTimestamp?: string } };
    }
  ).Payment;
  const ts = p.Wallet?.QrTimestamp ?? '';
  const m = /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(ts);
  const transactionDate = m
    ? `20${m[3]}-${m[2]}-${m[1]}T${m[4]}:${m[5]}:${m[6]}-03:00`
    : new Date(row.created_at).toISOString();
  return {
    transactionDate,
    terminalLogicalNumber: row.terminal_id,
    authorizationCode: p.AuthorizationCode ?? '',
    nsu: p.ProofOfSale ?? '',
    merchantId: Number(SANDBOX_MERCHANT.merchant.merchantNumber),
    amount: row.amount / 100,
    originalTransactionType: 1,
    statusCode: 3,
  };
}
