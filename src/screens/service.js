// Whether the kiosk can sell, from GET /v1/health. Pure (no DOM): the kiosk and its tests use it.

/**
 * Remembers when the page first saw each acquirer failure: the daemon sends nothing to the
 * acquirer to find out whether it is back (only a sale or the outbox would), so "acquirer down"
 * holds for `acquirerDownMs` after a failure is first seen, then the kiosk lets the next sale try.
 */
export class ServiceWatch {
  constructor(acquirerDownMs = 60_000) {
    this.acquirerDownMs = acquirerDownMs;
    this.failure = undefined;
    this.seenAt = 0;
  }

  /** Why the kiosk is out of service now (a short reason), or '' when it can sell. */
  reason(h, now = Date.now()) {
    if (!h) return 'daemon';
    if (h.pinpad && !(h.pinpad.connected && h.pinpad.secure)) return 'pinpad';
    // A printer offline because of its paper or cover still lets the kiosk sell (receipt on screen).
    if (h.printer && h.printer.reachable === false && !h.printer.paperOut && !h.printer.coverOpen) return 'printer';
    if (h.acquirer && h.acquirer.reachable === false) {
      const failure = h.acquirer.lastFailureAt ?? 'unknown';
      if (failure !== this.failure) {
        this.failure = failure;
        this.seenAt = now;
      }
      if (now - this.seenAt < this.acquirerDownMs) return 'acquirer';
    }
    return '';
  }
}
