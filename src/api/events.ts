import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PixEvent } from '../engine/pix/engine.js';
import type { QrEvent } from '../engine/qr/engine.js';
import type { SaleEvent } from '../engine/sale/engine.js';
import type { Journal } from '../store/index.js';
import { paymentView } from './payment-view.js';

/** What the engines tell through their `onEvent`. */
export type EngineEvent = SaleEvent | QrEvent | PixEvent;

/** Which engine a payment belongs to, as the journal names it. */
export type PaymentKind = 'sale' | 'qr' | 'pix';

/**
 * An event as the cash register reads it on `GET /v1/events`: the engine's event, numbered in
 * the order it happened (`seq`, from 1 at daemon start), stamped, and for a state change the
 * payment's API status (`pending`, `approved`, ...) whatever engine moved it.
 */
export type ApiEvent = EngineEvent & { seq: number; at: string; kind?: PaymentKind; status?: string };

type Listener = (event: ApiEvent) => void;

/**
 * Fans the engines' events out to the API's subscribers. Nothing is kept: a subscriber sees
 * what happens while it is subscribed (no replay, no `Last-Event-ID`); after a reconnect the
 * cash register reads `GET /v1/payments` for the state it missed.
 */
export class EventHub {
  #seq = 0;
  readonly #listeners = new Set<Listener>();

  /** `journal`: where a state change's payment is looked up for its status and kind. */
  constructor(
    private readonly journal?: Journal,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The engines' `onEvent`. Never throws: a failing subscriber is dropped. */
  publish(event: EngineEvent): void {
    const out: ApiEvent = { ...event, seq: ++this.#seq, at: this.now().toISOString() };
    const entry = this.journal?.get(event.id);
    if (entry && entry.kind !== 'void') {
      out.kind = entry.kind;
      if (event.type === 'state') out.status = String(paymentView(entry).status);
    }
    for (const listener of this.#listeners) {
      try {
        listener(out);
      } catch {
        this.#listeners.delete(listener);
      }
    }
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

/**
 * `GET /v1/events`: server-sent events (`event: <type>`, `id: <seq>`, `data: <json>`), a
 * comment line every `heartbeatMs` so proxies and the cash register see the stream alive.
 */
export function serveEvents(req: IncomingMessage, res: ServerResponse, hub: EventHub, heartbeatMs = 15_000): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  // Sent at once so the client knows the subscription is in place before it starts a sale.
  res.write(': omnipos events\n\n');
  const send = (text: string): void => {
    if (res.writableLength > MAX_BUFFERED) {
      res.destroy();
      return;
    }
    res.write(text);
  };
  const off = hub.subscribe((e) => send(`id: ${e.seq}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`));
  const beat = setInterval(() => send(': heartbeat\n\n'), heartbeatMs);
  beat.unref();
  const end = (): void => {
    off();
    clearInterval(beat);
  };
  res.once('close', end);
  req.once('error', end);
}
