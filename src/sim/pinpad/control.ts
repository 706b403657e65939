import net from 'node:net';
import { DISCONNECT_STEPS, FAULT_KINDS, type Fault } from './faults.js';
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
    case 'fault':
      if (
        !isRecord(v.fault) ||
        typeof v.fault.kind !== 'string' ||
        !(FAULT_KINDS as readonly string[]).includes(v.fault.kind)
      )
        return { error: `fault.kind must be one of ${FAULT_KINDS.join(', ')}` };
      if (v.fault.kind === 'delay' && typeof v.fault.ms !== 'number') return { error: 'delay needs ms' };
      if (
        v.fault.kind === 'disconnect' &&
        v.fault.when !== undefined &&
        !(DISCONNECT_STEPS as readonly unknown[]).includes(v.fault.when)
      )
        return { error: `disconnect.when must be one of ${DISCONNECT_STEPS.join(', ')}` };
      return { cmd: 'fault', fault: v.fault as unknown as Fault };
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
        ...sim.plugs,
      };
  }
}

/** Serves the control port for `sim`; resolves with the listening server. */
export async function serveControl(sim: VirtualPinpad, port = 0, host = '127.0.0.1'): Promise<net.Server> {
  const server = net.createServer((socket) => {
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
  return server;
}
