/**
 * Faults the virtual pinpad injects on command (from tests, the control port, or the CLI): the
 * errors a real serial line and real firmware produce. Counted faults apply to the next `count`
 * occasions (default 1) and then wear off.
 */
export type Fault =
  /** The next answers go out with a wrong CRC (the right one is resent on NAK). */
  | { kind: 'bad-crc'; count?: number }
  /** The ACK of the next commands is lost on the wire; the command still runs and answers. */
  | { kind: 'lost-ack'; count?: number }
  /** NAK the next packets received instead of ACK. */
  | { kind: 'nak-storm'; count?: number }
  /** Hold the next answers `ms` before sending (past 10 s: a late answer, §2.2.2 non-blocking limit). */
  | { kind: 'delay'; ms: number; count?: number }
  /** Send `bytes` bytes of line noise before the next answers; `control`: stray SYN, ACK, NAK, EOT among them. */
  | { kind: 'garbage'; bytes?: number; control?: boolean; count?: number }
  /** The next answers stop after `keep` bytes (default half): no ETB, no CRC ever comes. */
  | { kind: 'truncated-answer'; keep?: number; count?: number }
  /** The next answers are lost on the wire (the pinpad still has them for a NAK). */
  | { kind: 'lost-answer'; count?: number }
  /** The next NTM notifications go out in clear even inside a secure session. */
  | { kind: 'clear-ntm'; count?: number }
  /** The next CAN also drops the card held and the EMV context (as some firmware does). */
  | { kind: 'can-drops-emv'; count?: number }
  /** Stop answering anything (no ACK, no EOT, no answer) until cleared, or for `ms`. */
  | { kind: 'silence'; ms?: number }
  /**
   * Pull the cable: now; or at a step of the next command (`command` limits it to one id):
   * before its ACK, after its ACK while it runs (`mid-command`), or half-way through its answer.
   * Plug back after `replugAfterMs` (never if absent).
   */
  | { kind: 'disconnect'; when?: DisconnectStep; command?: string; replugAfterMs?: number }
  /**
   * The pinpad reboots with the line up (a power dip, a watchdog): the secure session, the card held
   * and the command running are lost; the link stays. Now, or when `command` next arrives (that
   * packet then meets the rebooted pinpad: sealed, it is answered ERR003, §6.3.2).
   */
  | { kind: 'reboot'; command?: string };

export type DisconnectStep = 'now' | 'before-ack' | 'mid-command' | 'mid-answer';
export type FaultKind = Fault['kind'];
export const FAULT_KINDS: readonly FaultKind[] = [
  'bad-crc',
  'lost-ack',
  'nak-storm',
  'delay',
  'garbage',
  'truncated-answer',
  'lost-answer',
  'clear-ntm',
  'can-drops-emv',
  'silence',
  'disconnect',
  'reboot',
];
export const DISCONNECT_STEPS: readonly DisconnectStep[] = ['now', 'before-ack', 'mid-command', 'mid-answer'];

type Counted = Exclude<Fault, { kind: 'silence' } | { kind: 'disconnect' } | { kind: 'reboot' }>;
type Reboot = Extract<Fault, { kind: 'reboot' }>;
type Disconnect = Extract<Fault, { kind: 'disconnect' }>;

/** The active faults, with what is left of each. */
export class FaultSet {
  private counts = new Map<FaultKind, { fault: Fault; left: number }>();
  private silentUntil: number | undefined;
  private disconnects: Disconnect[] = [];
  private reboots: Reboot[] = [];

  add(f: Fault, now = Date.now()): void {
    if (f.kind === 'silence') {
      this.silentUntil = f.ms === undefined ? Number.POSITIVE_INFINITY : now + f.ms;
      return;
    }
    if (f.kind === 'disconnect') {
      this.disconnects.push(f);
      return;
    }
    if (f.kind === 'reboot') {
      this.reboots.push(f);
      return;
    }
    const count = f.count !== undefined ? f.count : 1;
    this.counts.set(f.kind, { fault: f, left: count });
  }

  clear(): void {
    this.counts.clear();
    this.disconnects = [];
    this.reboots = [];
    this.silentUntil = undefined;
  }

  silent(now = Date.now()): boolean {
    return this.silentUntil !== undefined && now < this.silentUntil;
  }

  /** Takes one use of a counted fault, if active. */
  take<K extends Counted['kind']>(kind: K): Extract<Fault, { kind: K }> | undefined {
    const e = this.counts.get(kind);
    if (!e) return undefined;
    if (--e.left <= 0) this.counts.delete(kind);
    return e.fault as Extract<Fault, { kind: K }>;
  }

  /** Takes the unplug planned for this step of command `id` (undefined id: a sealed packet, any command matches). */
  takeDisconnect(id: string | undefined, step: Exclude<DisconnectStep, 'now'>): Disconnect | undefined {
    const i = this.disconnects.findIndex(
      (d) => (d.when ?? 'now') === step && (d.command === undefined || id === undefined || d.command === id),
    );
    if (i < 0) return undefined;
    return this.disconnects.splice(i, 1)[0];
  }

  /** Takes the reboot planned for the arrival of command `id` (undefined: a packet that does not open; any matches). */
  takeReboot(id: string | undefined): Reboot | undefined {
    const i = this.reboots.findIndex((r) => r.command === undefined || id === undefined || r.command === id);
    if (i < 0) return undefined;
    return this.reboots.splice(i, 1)[0];
  }

  list(): Fault[] {
    return [...[...this.counts.values()].map((e) => e.fault), ...this.disconnects, ...this.reboots];
  }
}
