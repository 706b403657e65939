// One payment followed from its POST to its end: the events of its id (those that arrived before
// the POST answered included), a poll of GET /v1/payments/{id} in case the stream drops, and what
// to tell the person at each step.
import { api } from './api.js';
import { t } from './i18n.js';

/** API statuses after which nothing more happens to the payment. */
export const FINAL = new Set(['confirmed', 'declined', 'cancelled', 'undone', 'needs-refund', 'failed']);

/** How many recent events are kept for a payment whose id the POST has not told yet. */
const EARLY = 50;

/** The text for a `prompt` event: ours for the codes we know, the daemon's `text` otherwise. */
export function promptText(e) {
  const known = t(`prompt.${e.prompt}`, '');
  return known || e.text || '';
}

/** The language of {@link promptText}'s answer: the page's, or Portuguese for the pinpad's own text. */
export function promptLang(e) {
  return t(`prompt.${e.prompt}`, '') ? '' : 'pt-BR';
}

/** The text for a payment state (the engine's state name); a QR or Pix sale starts by making its code, not by asking for a card. */
export function stateText(state, method) {
  if (state === 'started' && (method === 'wallet-qr' || method === 'pix')) return t('state.creating');
  return t(`state.${state}`, state);
}

export class PaymentRun {
  /**
   * `on`: { prompt(text, source), qr(code), question(), alarm(e), update(view), done(view) }.
   * `pollMs`: how often the payment is read while it runs.
   */
  constructor(on, { pollMs = 1000 } = {}) {
    this.on = on;
    this.pollMs = pollMs;
    this.id = undefined;
    this.view = undefined;
    this.finished = false;
    this.early = [];
    this.timer = undefined;
    this.lastEventAt = Date.now();
    this.prompted = false;
  }

  /** Every event of the stream goes through here. */
  feed(e) {
    if (this.finished) return;
    if (this.id === undefined) {
      this.early.push(e);
      if (this.early.length > EARLY) this.early.shift();
      return;
    }
    // A prompt may come without the payment's id: it is the pinpad's, and only one payment runs.
    if (e.id !== undefined && e.id !== this.id) return;
    this.lastEventAt = Date.now();
    switch (e.type) {
      case 'prompt':
        // Marks for the page's timing (performance.getEntriesByName): the first prompt of a payment.
        if (!this.prompted) performance.mark('omnipos:first-prompt');
        this.prompted = true;
        this.on.prompt(promptText(e), 'prompt', promptLang(e));
        break;
      case 'qr':
        if (e.qrCode) this.on.qr(e.qrCode);
        break;
      case 'receipt-question':
        this.on.question();
        break;
      case 'alarm':
        this.on.alarm?.(e);
        break;
      case 'state':
        this.on.prompt(stateText(e.state, this.method), 'state');
        if (e.status && FINAL.has(e.status)) void this.refresh();
        break;
      default:
        break;
    }
  }

  /** POST /v1/payments; throws ApiFailure when refused. */
  async start(request) {
    performance.mark('omnipos:start');
    this.method = request.method;
    const view = await api('/v1/payments', { method: 'POST', body: request });
    this.id = view.id;
    this.apply(view);
    const early = this.early.filter((e) => e.id === undefined || e.id === this.id);
    this.early = [];
    for (const e of early) this.feed(e);
    if (view.qrCode) this.on.qr(view.qrCode);
    this.timer = setInterval(() => void this.refresh(), this.pollMs);
    return view;
  }

  /** Reads the payment again (the stream may have dropped an event). */
  async refresh() {
    if (this.id === undefined || this.finished) return;
    try {
      this.apply(await api(`/v1/payments/${this.id}`));
    } catch {
      // the next poll tries again
    }
  }

  apply(view) {
    if (this.finished) return;
    const moved = this.view?.state !== view.state;
    this.view = view;
    this.on.update?.(view);
    if (FINAL.has(view.status)) {
      this.stop();
      this.finished = true;
      this.on.done(view);
    } else if (moved && this.view) {
      this.on.prompt(stateText(view.state, this.method), 'state');
    }
  }

  /** Asks the daemon to cancel; the end arrives as a state like any other. */
  async cancel() {
    if (this.id === undefined || this.finished) return;
    await api(`/v1/payments/${this.id}/cancel`, { method: 'POST' }).catch(() => undefined);
    await this.refresh();
  }

  stop() {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
