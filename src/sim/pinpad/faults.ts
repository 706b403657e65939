/**
 * Faults the virtual pinpad injects on command (from tests, the control port, or the CLI). Counted
 * faults apply to the next `count` occasions (default 1) and then wear off.
 */
export type Fault =
  /** The next responses go out with a wrong CRC (the right one is resent on NAK). */
  | { kind: 'bad-crc'; count?: number }
  /** The ACK of the next commands is lost on the wire; the command still runs and answers. */
  | { kind: 'lost-ack'; count?: number }
  /** NAK the next packets received instead of ACK. */
  | { kind: 'nak-storm'; count?: number }
  /** Hold the next responses `ms` before sending. */
  | { kind: 'delay'; ms: number; count?: number }
  /** Send `bytes` bytes of line noise before the next responses. */
  | { kind: 'garbage'; bytes?: number; count?: number }
  /** Stop answering anything (no ACK, no EOT, no response) until cleared, or for `ms`. */
  | { kind: 'silence'; ms?: number }
  /** Drop the connection (unplug) now, or after ACKing the next command; plug back after `replugAfterMs` (never if absent). */
  | { kind: 'disconnect'; when?: 'now' | 'mid-command'; replugAfterMs?: number };

export type FaultKind = Fault['kind'];

/** The active faults, with what is left of each. */
export class FaultSet {
  private counts = new Map<FaultKind, { fault: Fault; left: number }>();
  private silentUntil: number | undefined;

  add(f: Fault, now = Date.now()): void {
    if (f.kind === 'silence') {
      this.silentUntil = f.ms === undefined ? Number.POSITIVE_INFINITY : now + f.ms;
      return;
    }
    const count = 'count' in f && f.count !== undefined ? f.count : 1;
    this.counts.set(f.kind, { fault: f, left: count });
  }

  clear(): void {
    this.counts.clear();
    this.silentUntil = undefined;
  }

  silent(now = Date.now()): boolean {
    return this.silentUntil !== undefined && now < this.silentUntil;
  }

  /** Takes one use of a counted fault, if active. */
  take<K extends FaultKind>(kind: K): Extract<Fault, { kind: K }> | undefined {
    const e = this.counts.get(kind);
    if (!e) return undefined;
    if (--e.left <= 0) this.counts.delete(kind);
    return e.fault as Extract<Fault, { kind: K }>;
  }

  list(): Fault[] {
    return [...this.counts.values()].map((e) => e.fault);
  }
}
