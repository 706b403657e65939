import type { Db } from '../store/index.js';

/** A message waiting for the broker. */
export interface TelemetryMessage {
  /** The outbox row: increasing, so a consumer sees a terminal's messages in this order. */
  seq: number;
  /** What a consumer deduplicates on (also inside the payload as `id`). */
  msgId: string;
  topic: string;
  payload: string;
  qos: 0 | 1;
  retain: boolean;
  createdAt: string;
}

export interface TelemetryCounts {
  queued: number;
  /** When the oldest waiting message was queued, ISO; null when none waits. */
  oldestAt: string | null;
  /** Messages dropped since start because the queue was full (oldest first). */
  dropped: number;
}

interface Row {
  id: number;
  msg_id: string;
  topic: string;
  payload: string;
  qos: number;
  retain: number;
  created_at: string;
}

/**
 * The telemetry outbox (table `telemetry_outbox`): apart from the money outbox, so a broker
 * away never holds a sale nor a confirmation. A message is queued once (same `msgId`, ignored,
 * also after its delivery), read in order, and marked when the broker acknowledged it; delivered
 * rows go after two days. Past `maxQueued` waiting messages the oldest go.
 */
const KEEP_DELIVERED_MS = 2 * 86_400_000;

export class TelemetryOutbox {
  #dropped = 0;
  readonly #insert;
  readonly #next;
  readonly #remove;
  readonly #count;
  readonly #trim;
  readonly #prune;
  #prunedAt = Number.NEGATIVE_INFINITY;

  constructor(
    db: Db,
    private readonly maxQueued = 50_000,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.#insert = db.prepare(
      'INSERT OR IGNORE INTO telemetry_outbox (msg_id, topic, payload, qos, retain, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.#next = db.prepare('SELECT * FROM telemetry_outbox WHERE delivered_at IS NULL AND id > ? ORDER BY id LIMIT ?');
    this.#remove = db.prepare('UPDATE telemetry_outbox SET delivered_at = ? WHERE id = ?');
    this.#count = db.prepare(
      'SELECT count(*) AS n, min(created_at) AS oldest FROM telemetry_outbox WHERE delivered_at IS NULL',
    );
    this.#trim = db.prepare(
      'DELETE FROM telemetry_outbox WHERE id IN (SELECT id FROM telemetry_outbox WHERE delivered_at IS NULL ORDER BY id LIMIT ?)',
    );
    this.#prune = db.prepare('DELETE FROM telemetry_outbox WHERE delivered_at IS NOT NULL AND delivered_at < ?');
  }

  /** Queues one message; false when one with the same id was queued already. */
  add(m: { msgId: string; topic: string; payload: unknown; qos: 0 | 1; retain: boolean }): boolean {
    const body = JSON.stringify(m.payload);
    const added =
      this.#insert.run(m.msgId, m.topic, body, m.qos, m.retain ? 1 : 0, this.now().toISOString()).changes > 0;
    if (added) {
      const { n } = this.#count.get() as { n: number };
      if (n > this.maxQueued) this.#dropped += this.#trim.run(n - this.maxQueued).changes;
      const now = this.now().getTime();
      if (now - this.#prunedAt > 3_600_000) {
        this.#prunedAt = now;
        this.#prune.run(new Date(now - KEEP_DELIVERED_MS).toISOString());
      }
    }
    return added;
  }

  /** Up to `limit` waiting messages after `afterSeq`, oldest first. */
  next(limit = 100, afterSeq = 0): TelemetryMessage[] {
    return (this.#next.all(afterSeq, limit) as Row[]).map((r) => ({
      seq: r.id,
      msgId: r.msg_id,
      topic: r.topic,
      payload: r.payload,
      qos: r.qos === 1 ? 1 : 0,
      retain: r.retain === 1,
      createdAt: r.created_at,
    }));
  }

  /** The broker acknowledged it: kept (as delivered) for two days, so the same id is not queued again. */
  delivered(seq: number): void {
    this.#remove.run(this.now().toISOString(), seq);
  }

  counts(): TelemetryCounts {
    const { n, oldest } = this.#count.get() as { n: number; oldest: string | null };
    return { queued: n, oldestAt: oldest, dropped: this.#dropped };
  }
}
