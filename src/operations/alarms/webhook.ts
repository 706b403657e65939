import { createHmac, timingSafeEqual } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Dispatcher } from 'undici';
import type * as UndiciModule from 'undici';
import { type Clock, type Logger, scrubText } from '../../core/index.js';
import { nextTryAt } from '../../engine/index.js';
import type { Db } from '../../store/index.js';

/** undici's request API loads at the first alarm sent, not when the daemon starts (fast start). */
const undici = (): typeof UndiciModule => createRequire(import.meta.url)('undici') as typeof UndiciModule;

/** The headers a webhook request carries. */
const SIGNATURE_HEADER = 'x-omnipos-signature';
const TIMESTAMP_HEADER = 'x-omnipos-timestamp';
const ALARM_ID_HEADER = 'x-omnipos-alarm-id';

/**
 * The signature of one webhook request: `sha256=` + hex HMAC-SHA256, under the shared secret,
 * of `<timestamp>.<body>` (timestamp in Unix seconds). Signing the timestamp with the body lets
 * the receiver refuse a replayed request: it checks the signature, then that the timestamp is
 * recent (e.g. within 5 minutes), then the alarm id it has seen.
 */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** A receiver's check: the signature matches and the timestamp is within `toleranceSeconds` of `nowSeconds`. */
export function verifyWebhook(
  secret: string,
  headers: { signature?: string; timestamp?: string },
  body: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): boolean {
  const ts = Number(headers.timestamp);
  if (!headers.signature || !Number.isSafeInteger(ts) || Math.abs(nowSeconds - ts) > toleranceSeconds) return false;
  const want = Buffer.from(signWebhook(secret, ts, body));
  const got = Buffer.from(headers.signature);
  return want.length === got.length && timingSafeEqual(want, got);
}

interface Row {
  id: number;
  alarm_id: string;
  body: string;
  attempts: number;
  next_try_at: string;
}

/** Alarm notifications waiting for the webhook (table `alarm_webhooks`): kept across restarts until a 2xx. */
export class WebhookQueue {
  constructor(private readonly db: Db) {}

  /** Queues one notification; the same alarm id is queued once. True when it is new. */
  enqueue(alarmId: string, body: Record<string, unknown>, at: Date): boolean {
    return (
      this.db
        .prepare(
          'INSERT INTO alarm_webhooks (alarm_id, body, next_try_at, created_at) VALUES (?, ?, ?, ?) ON CONFLICT(alarm_id) DO NOTHING',
        )
        .run(alarmId, JSON.stringify(body), at.toISOString(), at.toISOString()).changes === 1
    );
  }

  has(alarmId: string): boolean {
    return this.db.prepare('SELECT 1 FROM alarm_webhooks WHERE alarm_id = ?').get(alarmId) !== undefined;
  }

  due(now: Date, limit = 20): Row[] {
    return this.db
      .prepare(
        'SELECT id, alarm_id, body, attempts, next_try_at FROM alarm_webhooks WHERE delivered_at IS NULL AND next_try_at <= ? ORDER BY next_try_at, id LIMIT ?',
      )
      .all(now.toISOString(), limit) as Row[];
  }

  delivered(id: number, at: Date): void {
    this.db
      .prepare('UPDATE alarm_webhooks SET attempts = attempts + 1, delivered_at = ?, last_error = NULL WHERE id = ?')
      .run(at.toISOString(), id);
  }

  failed(id: number, error: string, next: Date): void {
    this.db
      .prepare('UPDATE alarm_webhooks SET attempts = attempts + 1, last_error = ?, next_try_at = ? WHERE id = ?')
      .run(error, next.toISOString(), id);
  }

  /** Notifications not delivered yet (for health and the support bundle). */
  pending(): { alarmId: string; attempts: number; lastError: string | null; nextTryAt: string }[] {
    return (
      this.db
        .prepare(
          'SELECT alarm_id, attempts, last_error, next_try_at FROM alarm_webhooks WHERE delivered_at IS NULL ORDER BY id',
        )
        .all() as {
        alarm_id: string;
        attempts: number;
        last_error: string | null;
        next_try_at: string;
      }[]
    ).map((r) => ({ alarmId: r.alarm_id, attempts: r.attempts, lastError: r.last_error, nextTryAt: r.next_try_at }));
  }
}

export interface WebhookSenderOptions {
  url: string;
  secret: { reveal(): string };
  timeoutMs: number;
  queue: WebhookQueue;
  /** The terminal's own clock (NTP), for the signed timestamp the receiver compares with its own. */
  wallClock: Clock;
  dispatcher: Dispatcher;
  log: Logger;
  /** Backoff of a failed delivery: first delay and longest delay, ms. */
  baseMs?: number;
  maxMs?: number;
}

/**
 * Delivers queued notifications: one POST per alarm, JSON, signed, retried with exponential
 * backoff and jitter until the receiver answers 2xx. A pass never throws.
 */
export class WebhookSender {
  #running: Promise<number> | undefined;

  constructor(private readonly o: WebhookSenderOptions) {}

  /** Queues one notification, due now by the terminal's clock; the same alarm id once. True when new. */
  enqueue(alarmId: string, body: Record<string, unknown>): boolean {
    return this.o.queue.enqueue(alarmId, body, this.o.wallClock.now());
  }

  get queue(): WebhookQueue {
    return this.o.queue;
  }

  /** One pass over what is due; returns how many were delivered. Concurrent calls share the pass. */
  runOnce(): Promise<number> {
    this.#running ??= this.#pass().finally(() => (this.#running = undefined));
    return this.#running;
  }

  async #pass(): Promise<number> {
    let delivered = 0;
    const { queue, wallClock } = this.o;
    for (const row of queue.due(wallClock.now())) {
      const error = await this.#post(row).catch((e: unknown) => scrubText((e as Error).message ?? String(e)));
      const now = wallClock.now();
      if (error === undefined) {
        queue.delivered(row.id, now);
        delivered++;
        this.o.log.info({ alarmId: row.alarm_id, attempts: row.attempts + 1 }, 'alarm delivered to the webhook');
      } else {
        const far = new Date(now.getTime() + 365 * 86_400_000);
        queue.failed(
          row.id,
          error,
          nextTryAt(row.attempts, now, far, Math.random(), {
            baseMs: this.o.baseMs ?? 1000,
            maxMs: this.o.maxMs ?? 300_000,
          }),
        );
        this.o.log.warn({ alarmId: row.alarm_id, attempts: row.attempts + 1, error }, 'alarm webhook failed; retrying');
      }
    }
    return delivered;
  }

  /** Undefined when the receiver took it (2xx); the reason otherwise. */
  async #post(row: Row): Promise<string | undefined> {
    const timestamp = Math.floor(this.o.wallClock.now().getTime() / 1000);
    const res = await undici().request(this.o.url, {
      method: 'POST',
      dispatcher: this.o.dispatcher,
      headers: {
        'content-type': 'application/json',
        [TIMESTAMP_HEADER]: String(timestamp),
        [SIGNATURE_HEADER]: signWebhook(this.o.secret.reveal(), timestamp, row.body),
        [ALARM_ID_HEADER]: row.alarm_id,
      },
      body: row.body,
      headersTimeout: this.o.timeoutMs,
      bodyTimeout: this.o.timeoutMs,
      signal: AbortSignal.timeout(this.o.timeoutMs),
    });
    await res.body.dump();
    return res.statusCode >= 200 && res.statusCode < 300 ? undefined : `HTTP ${res.statusCode}`;
  }
}
