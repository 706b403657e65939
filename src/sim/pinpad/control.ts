import net from 'node:net';
import { DISCONNECT_STEPS, FAULT_KINDS, type DisconnectStep, type Fault } from './faults.js';
import type { VirtualPinpad } from './server.js';
import { cardSim, deckListing, type CardChoice } from './card/index.js';

/**
 * The virtual pinpad's control port: one JSON object per line in, one JSON answer per line out.
 * Commands: {"cmd":"fault","fault":{…Fault}} · {"cmd":"clear"} · {"cmd":"keys","value":"123"} ·
 * {"cmd":"typing","ms":50|null} · {"cmd":"unplug","replugAfterMs":500} · {"cmd":"replug"} ·
 * {"cmd":"state"} (display, commands received, session opened).
 */
export type ControlCommand =
  | { cmd: 'fault'; fault: Fault }
  | { cmd: 'clear' }
  | { cmd: 'keys'; value: string }
  | { cmd: 'typing'; ms: number | null }
  | { cmd: 'unplug'; replugAfterMs?: number }
  | { cmd: 'replug' }
  | { cmd: 'state' }
  // The card the customer presents ({"cmd":"card","choice":{"lastDigit":0,"via":"chip"}}), the deck, the EMV table versions
  | { cmd: 'card'; choice: CardChoice }
  | { cmd: 'deck' };

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const isDisconnectStep = (x: unknown): x is DisconnectStep => DISCONNECT_STEPS.some((s) => s === x);

/** An optional member: absent, or of the type `is` checks. */
function optional<T>(
  f: Record<string, unknown>,
  key: string,
  is: (x: unknown) => x is T,
): { ok: true; value: T | undefined } | { ok: false } {
  const x = f[key];
  if (x === undefined) return { ok: true, value: undefined };
  return is(x) ? { ok: true, value: x } : { ok: false };
}
const isNumber = (x: unknown): x is number => typeof x === 'number';
const isBoolean = (x: unknown): x is boolean => typeof x === 'boolean';
const isString = (x: unknown): x is string => typeof x === 'string';

/** A fault from its JSON, member by member for its kind (faults.ts `Fault`), or why not. */
function parseFault(f: Record<string, unknown>): Fault | { error: string } {
  const count = optional(f, 'count', isNumber);
  if (!count.ok) return { error: 'fault.count must be a number' };
  const counted = count.value === undefined ? {} : { count: count.value };
  switch (f.kind) {
    case 'bad-crc':
    case 'lost-ack':
    case 'nak-storm':
    case 'lost-answer':
    case 'clear-ntm':
    case 'can-drops-emv':
      return { kind: f.kind, ...counted };
    case 'delay':
      return typeof f.ms === 'number' ? { kind: 'delay', ms: f.ms, ...counted } : { error: 'delay needs ms' };
    case 'garbage': {
      const bytes = optional(f, 'bytes', isNumber);
      const control = optional(f, 'control', isBoolean);
      if (!bytes.ok || !control.ok) return { error: 'garbage: bytes is a number, control true or false' };
      return {
        kind: 'garbage',
        ...counted,
        ...(bytes.value === undefined ? {} : { bytes: bytes.value }),
        ...(control.value === undefined ? {} : { control: control.value }),
      };
    }
    case 'truncated-answer': {
      const keep = optional(f, 'keep', isNumber);
      if (!keep.ok) return { error: 'truncated-answer: keep is a number' };
      return { kind: 'truncated-answer', ...counted, ...(keep.value === undefined ? {} : { keep: keep.value }) };
    }
    case 'silence': {
      const ms = optional(f, 'ms', isNumber);
      if (!ms.ok) return { error: 'silence: ms is a number' };
      return { kind: 'silence', ...(ms.value === undefined ? {} : { ms: ms.value }) };
    }
    case 'disconnect': {
      const when = optional(f, 'when', isDisconnectStep);
      if (!when.ok) return { error: `disconnect.when must be one of ${DISCONNECT_STEPS.join(', ')}` };
      const command = optional(f, 'command', isString);
      const replug = optional(f, 'replugAfterMs', isNumber);
      if (!command.ok || !replug.ok) return { error: 'disconnect: command is text, replugAfterMs a number' };
      return {
        kind: 'disconnect',
        ...(when.value === undefined ? {} : { when: when.value }),
        ...(command.value === undefined ? {} : { command: command.value }),
        ...(replug.value === undefined ? {} : { replugAfterMs: replug.value }),
      };
    }
    case 'reboot': {
      const command = optional(f, 'command', isString);
      if (!command.ok) return { error: 'reboot: command is text' };
      return { kind: 'reboot', ...(command.value === undefined ? {} : { command: command.value }) };
    }
    default:
      return { error: `fault.kind must be one of ${FAULT_KINDS.join(', ')}` };
  }
}

/** Validates a control line; returns the command or a reason. */
export function parseControl(line: string): ControlCommand | { error: string } {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return { error: 'not JSON' };
  }
  if (!isRecord(v) || typeof v.cmd !== 'string') return { error: 'expected {"cmd": …}' };
  switch (v.cmd) {
    case 'fault': {
      if (!isRecord(v.fault)) return { error: `fault.kind must be one of ${FAULT_KINDS.join(', ')}` };
      const fault = parseFault(v.fault);
      return 'error' in fault ? fault : { cmd: 'fault', fault };
    }
    case 'keys':
      return typeof v.value === 'string' ? { cmd: 'keys', value: v.value } : { error: 'keys needs value' };
    case 'typing':
      return typeof v.ms === 'number' || v.ms === null
        ? { cmd: 'typing', ms: v.ms }
        : { error: 'typing needs ms (number or null)' };
    case 'unplug':
      return typeof v.replugAfterMs === 'number'
        ? { cmd: 'unplug', replugAfterMs: v.replugAfterMs }
        : { cmd: 'unplug' };
    case 'card':
      return isRecord(v.choice)
        ? { cmd: 'card', choice: v.choice }
        : {
            error:
              'card needs choice {pan|lastDigit|name, via, action, pin, declineAfterApproval, declineOffline, removeEarly, leavesCard}',
          };
    case 'clear':
    case 'replug':
    case 'state':
    case 'deck':
      return { cmd: v.cmd };
    default:
      return { error: `unknown cmd ${v.cmd}` };
  }
}

async function apply(sim: VirtualPinpad, c: ControlCommand): Promise<Record<string, unknown>> {
  switch (c.cmd) {
    case 'fault':
      sim.inject(c.fault);
      return {};
    case 'clear':
      sim.engine.faults.clear();
      return {};
    case 'keys':
      sim.engine.type(c.value);
      return {};
    case 'typing':
      sim.engine.typingMs = c.ms;
      return {};
    case 'unplug':
      await sim.unplug(c.replugAfterMs);
      return {};
    case 'replug':
      await sim.replug();
      return {};
    case 'card': {
      const r = cardSim(sim.engine.state).deck.choose(c.choice);
      if (!r.ok) throw new Error(r.error);
      return { presented: r.presented };
    }
    case 'deck':
      return {
        cards: deckListing(),
        presented: cardSim(sim.engine.state).deck.describe(),
        tables: cardSim(sim.engine.state).tables.versions(),
      };
    case 'state':
      return {
        display: sim.engine.state.display,
        received: sim.engine.state.received,
        opened: sim.engine.state.opened,
        cans: sim.engine.state.cans,
        rejected: sim.engine.state.rejected ?? {},
        noise: sim.engine.noise,
        timing: { name: sim.profile.timing, scale: sim.profile.timingScale },
        ...sim.plugs,
      };
  }
}

/** The control port served: where it listens, and how to close it with its clients. */
export interface ControlPort {
  readonly port: number;
  /** Stops listening and ends every connected controller: none keeps a stopped simulator alive. */
  close(): Promise<void>;
}

/** Serves the control port for `sim`. */
export async function serveControl(sim: VirtualPinpad, port = 0, host = '127.0.0.1'): Promise<ControlPort> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    let buf = '';
    socket.on('error', () => undefined);
    socket.on('data', (d: Buffer) => {
      buf += d.toString('utf8');
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl).trim();
        buf = buf.slice(nl + 1);
        if (!line) continue;
        const c = parseControl(line);
        if ('error' in c) {
          socket.write(`${JSON.stringify({ ok: false, error: c.error })}\n`);
          continue;
        }
        apply(sim, c).then(
          (r) => socket.write(`${JSON.stringify({ ok: true, ...r })}\n`),
          (e: unknown) => socket.write(`${JSON.stringify({ ok: false, error: (e as Error).message })}\n`),
        );
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
