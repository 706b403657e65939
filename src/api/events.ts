import type { IncomingMessage, ServerResponse } from 'node:http';
import { type PaymentKind, HOST_TIME_ZONE, localTime } from '../core/index.js';
import { journalData, type EngineEvent, type VoidData } from '../engine/index.js';
import type { EventLog, Journal, JournalEntry } from '../store/index.js';
import { ApiError } from './http-kit.js';
import type { StreamCaps } from './stream-caps.js';
import { paymentView } from './payment-view.js';

/** What the engines tell through their `onEvent`. */
export type { EngineEvent };

/**
 * An event as the cash register reads it on `GET /v1/events`: the engine's event, numbered in
 * the order it happened (`seq`: with an event log, increasing across restarts and never given
 * twice), stamped, and for a state change the payment's API status (`pending`, `approved`, ...)
 * whatever engine moved it.
 */
export type ApiEvent = Stamped<EngineEvent> & { seq: number; at: string; status?: string; saleId?: number };

/** A sale's event is stamped with its payment's kind; a void's event names its own (`void`, `void-cancellation`). */
type Stamped<E> = E extends { kind: string } ? E : E & { kind?: PaymentKind };

type Listener = (event: ApiEvent) => void;

const voidSaleId = (entry: JournalEntry): number => journalData<VoidData>(entry).sale.id;

/** At most this many events are replayed to one reconnecting client. */
export const MAX_REPLAY = 20_000;

/** The events a replay reads from the log at once: what one stream holds in memory while its client reads. */
export const REPLAY_PAGE = 128;

/** How a reconnect's replay went (the `x-omnipos-replay` header): see {@link EventHub.replay}. */
export type ReplayOutcome = 'none' | 'complete' | 'partial';

/** A reconnect's replay: its outcome, known at once, and its events, read a page at a time when asked. */
export interface Replay {
  outcome: ReplayOutcome;
  pages(): Iterable<Record<string, unknown>[]>;
}

/** The day's events after `after` up to `upTo`, at most {@link MAX_REPLAY}, {@link REPLAY_PAGE} at a time; withheld rows skipped. */
function* pagesOf(log: EventLog, day: string, after: number, upTo: number): Generator<Record<string, unknown>[]> {
  let from = after;
  for (let read = 0; read < MAX_REPLAY;) {
    const rows = log.since(day, from, Math.min(REPLAY_PAGE, MAX_REPLAY - read), upTo);
    if (rows.length === 0) return;
    read += rows.length;
    from = rows.at(-1)?.seq ?? from;
    yield rows.filter((e) => e.body.withheld !== true).map((e) => e.body);
  }
}

/** The business day of `at` (host time), YYYY-MM-DD. */
export function businessDay(at: Date): string {
  const t = localTime(at, HOST_TIME_ZONE);
  return `${String(t.year).padStart(4, '0')}-${String(t.month).padStart(2, '0')}-${String(t.day).padStart(2, '0')}`;
}

/**
 * Fans the engines' events out to the API's subscribers and, given an event log, keeps them for
 * the business day: a client that reconnects with `Last-Event-ID` is sent what it missed (that
 * day's events after it, in order), then the live ones.
 */
export class EventHub {
  #seq = 0;
  #day: string | undefined;
  readonly #listeners = new Set<Listener>();
  /** Published, not yet written nor sent (see {@link publish}). */
  readonly #queue: ApiEvent[] = [];
  /** Seqs sent live only, the log refusing them, not yet passed over by the log ({@link passLive}). */
  #liveOnly: { after: number; through: number } | undefined;
  /** Written, held until the transaction they were written in is over (see {@link flush}); `check`: written inside it. */
  readonly #held: { out: ApiEvent; check: boolean }[] = [];

  /**
   * `journal`: where a state change's payment is looked up for its status and kind. `log`: where
   * events are kept for replay (none: nothing is replayed, seq counts from 1 at start).
   */
  constructor(
    private readonly journal?: Journal,
    private readonly now: () => Date = () => new Date(),
    private readonly log?: EventLog,
  ) {
    // The last seq given needs no business day: the day (ICU's first time-zone formatter, ~10 ms of a
    // start) and the prune of the days before wait for the first event or reconnect, after ready.
    if (log) {
      this.#seq = log.lastSeq();
      log.flushBefore(() => this.flush());
    }
  }

  #today(): string {
    const day = businessDay(this.now());
    if (day !== this.#day) {
      this.#day = day;
      // The stream is kept for the business day: a new day forgets the ones before.
      try {
        this.log?.pruneBefore(day);
      } catch {
        // a busy or full disk: pruning waits for the next day change
      }
    }
    return day;
  }

  /**
   * The engines' `onEvent`. Never throws: a failing subscriber is dropped; an event the log refuses is
   * still sent live. With a log, each event is written ({@link flush}) before it is sent live: a killed
   * process has sent nothing it did not write. Events published outside a transaction are held to the
   * end of the turn and written in one commit ({@link flush} in a microtask), or earlier: before any
   * transaction on the database begins (the log's {@link EventLog.flushBefore}), so none is written
   * inside a transaction that may roll back, and before a replay or a clean stop. One published inside
   * a transaction is written in it at once, with those held before it (none: the transaction's BEGIN
   * wrote them).
   */
  publish(event: EngineEvent): void {
    const out: ApiEvent = { ...event, seq: 0, at: this.now().toISOString() };
    const entry = this.journal?.get(event.id);
    if (entry && entry.kind !== 'void') {
      out.kind = entry.kind;
      if (event.type === 'state') out.status = String(paymentView(entry).status);
    } else if (entry) {
      // A void's (or Pix refund's) every event says so, and names the payment it gives money back for.
      Object.assign(out, { kind: 'kind' in event ? event.kind : 'void', saleId: voidSaleId(entry) });
    }
    if (!this.log) {
      out.seq = ++this.#seq;
      this.#deliver(out);
      return;
    }
    if (this.#queue.push(out) === 1 && !this.log.inTransaction()) queueMicrotask(() => this.flush());
    if (this.log.inTransaction()) this.flush();
  }

  /**
   * Writes the events published and not yet written, in one commit, then sends them live, in order.
   * Published inside a transaction (the outbox's, which moves the journal as it records a delivery),
   * they are written in it and sent only once it is over, if their rows were kept: a transaction that
   * rolled back (its commit failed: EIO, a full disk) sends nothing of what it said. Events published
   * after them wait behind them, in order.
   */
  flush(): void {
    const batch = this.#queue.splice(0);
    if (batch.length === 0) return;
    const inside = this.log?.inTransaction() === true;
    const seqs = this.#write(batch);
    batch.forEach((out, i) => {
      out.seq = seqs[i] ?? ++this.#seq;
      if (!inside && this.#held.length === 0) this.#deliver(out);
      else if (this.#held.push({ out, check: inside }) === 1) queueMicrotask(() => this.#release());
    });
  }

  /** The held events sent, each written inside a transaction only if its row is still there. */
  #release(): void {
    const log = this.log as EventLog;
    // A transaction is synchronous: over by the next microtask, unless one opened across turns.
    if (log.inTransaction()) {
      setImmediate(() => this.#release());
      return;
    }
    for (const { out, check } of this.#held.splice(0)) {
      let kept = true;
      try {
        kept = !check || log.holds(out.seq, out);
      } catch {
        // the database cannot say: what may not have been kept is not sent (GET /v1/payments says)
        kept = false;
      }
      if (kept) this.#deliver(out);
    }
  }

  #deliver(out: ApiEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(out);
      } catch {
        this.#listeners.delete(listener);
      }
    }
  }

  /**
   * The events' seqs: the log's rows, one commit for them all. An event the log's guard refuses
   * (card data) still takes a seq, as a withheld row the replay skips (and calls partial); with the
   * commit failing, each is tried alone, and one the database refuses takes one past the last given
   * (sent live, not replayable).
   */
  #write(batch: ApiEvent[]): number[] {
    const day = this.#today();
    if (!this.#passLive()) return batch.map(() => this.#live());
    try {
      const seqs = (this.log as EventLog).appendAll(
        day,
        batch.map((out) => ({ at: out.at, body: out })),
      );
      this.#seq = seqs.at(-1) ?? this.#seq;
      return seqs;
    } catch {
      return batch.map((out) => this.#next(day, out));
    }
  }

  #next(day: string, out: ApiEvent): number {
    if (!this.#passLive()) return this.#live();
    try {
      this.#seq = (this.log as EventLog).append(day, out.at, out);
      return this.#seq;
    } catch {
      try {
        this.#seq = (this.log as EventLog).withhold(day, out.at);
        return this.#seq;
      } catch {
        // the database fails: sent live, not replayable
      }
    }
    return this.#live();
  }

  /** A seq for an event the database refused, sent live only: remembered until the log has moved past it. */
  #live(): number {
    const seq = ++this.#seq;
    this.#liveOnly = { after: this.#liveOnly?.after ?? seq - 1, through: seq };
    return seq;
  }

  /**
   * Before the log gives a seq again: the seqs sent live only are passed over (the log's next is past them, a
   * replay over them says partial). Without it the database, writing again, gave a live seq a client may hold to
   * another event. False while the database still refuses.
   */
  #passLive(): boolean {
    if (!this.#liveOnly) return true;
    try {
      (this.log as EventLog).passLive(this.#liveOnly.after, this.#liveOnly.through);
      this.#liveOnly = undefined;
      return true;
    } catch {
      return false;
    }
  }

  /**
   * The events after `lastEventId` a reconnecting client missed: today's, in order, at most
   * {@link MAX_REPLAY}, up to the last one given now (the later ones reach a subscriber live).
   * `complete` when nothing it missed is left out; `partial` when some is (its id is from before
   * today, from another database, past the bound, or a power cut may have taken back events after
   * it): read `GET /v1/payments`. Only counted here:
   * the events are read from the log a page at a time, as the stream takes them ({@link Replay}).
   */
  replay(lastEventId: number): Replay {
    const log = this.log;
    if (!log) return { outcome: 'partial', pages: () => [] };
    this.flush();
    const day = this.#today();
    const { first, last } = log.bounds(day);
    // One past the bound is counted, to tell a day of exactly MAX_REPLAY from a longer one.
    const { rows, withheld } = log.countSince(day, lastEventId, last, MAX_REPLAY + 1);
    // Missed events of an earlier day (or ids this database never gave) are not replayed.
    const beforeToday = lastEventId < last && (first === undefined || lastEventId < first - 1);
    const gap =
      lastEventId > last || beforeToday || rows > MAX_REPLAY || withheld > 0 || log.lostWithin(lastEventId, last);
    return { outcome: gap ? 'partial' : 'complete', pages: () => pagesOf(log, day, lastEventId, last) };
  }

  /** Calls `listener` for every event from now on; returns the unsubscribe. */
  subscribe(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  get subscribers(): number {
    return this.#listeners.size;
  }
}

/** A subscriber that does not read is cut off past this many bytes waiting. */
const MAX_BUFFERED = 1024 * 1024;

const frame = (e: { seq: unknown; type: unknown }): string =>
  `id: ${String(e.seq)}\nevent: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`;

/** `Last-Event-ID` as a seq; absent: undefined; anything but a whole number: 400. */
function lastEventId(req: IncomingMessage): number | undefined {
  const raw = req.headers['last-event-id'];
  if (raw === undefined || (typeof raw === 'string' && raw.trim() === '')) return undefined;
  const text = String(raw).trim();
  if (!/^\d{1,15}$/.test(text))
    throw new ApiError(
      400,
      'INVALID_FIELD',
      'Last-Event-ID: the seq (id:) of the last event received, a whole number',
      'Last-Event-ID',
    );
  return Number(text);
}

/** Live events held for a stream while its replay is written; past this many it is cut off (it reconnects with `Last-Event-ID`). */
const MAX_HELD = 1000;

/** A replay whose client takes nothing for this long is cut off: it holds a stream's place and a page. */
export const REPLAY_STALL_MS = 60_000;

/** Resolves when `res` can take more (or is closed); false when it took nothing for `ms`. */
function drained(res: ServerResponse, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (ok: boolean): void => {
      clearTimeout(timer);
      res.off('drain', onDrain);
      res.off('close', onDrain);
      resolve(ok);
    };
    const onDrain = (): void => done(true);
    const timer = setTimeout(() => done(false), ms);
    timer.unref();
    res.once('drain', onDrain);
    res.once('close', onDrain);
  });
}

/** How one stream is served: its hub, its heartbeat, the caps it counts against. */
export interface StreamOptions {
  heartbeatMs?: number | undefined;
  caps?: StreamCaps | undefined;
  stallMs?: number | undefined;
  /** Which events this stream shows (a screen's token: its own payments'); default all. */
  visible?: ((e: { id?: unknown }) => boolean) | undefined;
}

/**
 * `GET /v1/events`: server-sent events (`event: <type>`, `id: <seq>`, `data: <json>`), a
 * comment line every `heartbeatMs` so proxies and the cash register see the stream alive. With
 * `Last-Event-ID`, the day's events after it come first (header `x-omnipos-replay`), read from the
 * log a page at a time as the client takes them, then the live ones, none twice and none left
 * between. A stream past the caps (per client, in total) is refused, 429 `TOO_MANY_STREAMS`.
 */
export async function serveEvents(
  req: IncomingMessage,
  res: ServerResponse,
  hub: EventHub,
  o: StreamOptions = {},
): Promise<void> {
  const after = lastEventId(req);
  const release = o.caps?.open(req) ?? (() => undefined);
  // Read and subscribe in one synchronous step: nothing is published between the two.
  let replay: Replay;
  try {
    replay = after === undefined ? { outcome: 'none', pages: () => [] } : hub.replay(after);
  } catch (e) {
    release();
    throw e;
  }
  const early: ApiEvent[] = [];
  let live = false;
  const send = (text: string): void => {
    if (res.writableLength > MAX_BUFFERED) {
      res.destroy();
      return;
    }
    res.write(text);
  };
  const shown = o.visible ?? (() => true);
  const off = hub.subscribe((e) => {
    if (!shown(e)) return;
    if (live) send(frame(e));
    else if (early.push(e) > MAX_HELD) res.destroy();
  });
  const beat = setInterval(() => send(': heartbeat\n\n'), o.heartbeatMs ?? 15_000);
  beat.unref();
  let closed = false;
  const end = (): void => {
    closed = true;
    off();
    release();
    clearInterval(beat);
  };
  res.once('close', end);
  req.once('error', end);
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-omnipos-replay': replay.outcome,
  });
  // Sent at once so the client knows the subscription is in place before it starts a sale.
  res.write(': omnipos events\n\n');
  // The replay may be long: a page at a time, the next read only once the client took the last.
  for (const page of replay.pages()) {
    let full = false;
    for (const e of page.filter(shown)) full = !res.write(frame(e as { seq: unknown; type: unknown }));
    if (full && !(await drained(res, o.stallMs ?? REPLAY_STALL_MS))) res.destroy();
    if (closed || res.destroyed) return;
  }
  live = true;
  for (const e of early.splice(0)) send(frame(e));
}
