// Whether the kiosk can sell, from GET /v1/health. Pure (no DOM): the kiosk and its tests use it.

/**
 * Follows health's `acquirer.reachable`: the daemon probes the acquirer on its own while it reads
 * unreachable (src/main/acquirer-probe.ts), so health turns reachable again without a sale and the
 * kiosk need not guess. A small grace against flapping: "acquirer down" only once health has said
 * unreachable for `acquirerDownMs` in a row (one failed request the next probe contradicts does not
 * close the kiosk); back in service as soon as health says reachable.
 */
export class ServiceWatch {
  constructor(acquirerDownMs = 5_000) {
    this.acquirerDownMs = acquirerDownMs;
    /** When health first said unreachable in the current run of such readings; undefined while reachable. */
    this.downSince = undefined;
  }

  /** Why the kiosk is out of service now (a short reason), or '' when it can sell. */
  reason(h, now = Date.now()) {
    if (!h) return 'daemon';
    if (h.pinpad && !(h.pinpad.connected && h.pinpad.secure)) return 'pinpad';
    // A printer offline because of its paper or cover still lets the kiosk sell (receipt on screen).
    if (h.printer && h.printer.reachable === false && !h.printer.paperOut && !h.printer.coverOpen) return 'printer';
    if (h.acquirer && h.acquirer.reachable === false) {
      this.downSince ??= now;
      if (now - this.downSince >= this.acquirerDownMs) return 'acquirer';
    } else if (h.acquirer) {
      this.downSince = undefined;
    }
    return '';
  }
}
