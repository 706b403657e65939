import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  INITIAL_LINK_STATE,
  transition,
  type LinkCommand,
  type LinkEffect,
  type LinkInput,
  type LinkState,
} from '../../../../../drivers/pinpad/link/machine.js';
import { SPEC_TIMINGS, linkTimings } from '../../../../../drivers/pinpad/link/timings.js';
import { isPinpadError } from '../../../../../drivers/pinpad/errors.js';
import { fcSeed } from '../../../../helpers/fc-seed.js';

const T = SPEC_TIMINGS;
const ACK = { type: 'control', byte: 0x06 } as const;
const NAK = { type: 'control', byte: 0x15 } as const;
const EOT = { type: 'control', byte: 0x04 } as const;

function cmd(id: number, blocking = false): LinkCommand {
  return { id, name: `C${id}`, wire: Uint8Array.of(0x16, id, 0x17, 0, 0), blocking };
}
const frame = (text: string, notification = false): LinkInput => ({
  type: 'frame',
  data: Buffer.from(text),
  notification,
});

/** Runs the machine under fake time: one timer, like the real owner. */
class Harness {
  state: LinkState = INITIAL_LINK_STATE;
  now = 0;
  deadline: number | null = null;
  log: LinkEffect[] = [];

  constructor(readonly t = T) {
    this.feed({ type: 'up' });
    this.log = [];
  }

  feed(...inputs: LinkInput[]): LinkEffect[] {
    const out: LinkEffect[] = [];
    for (const input of inputs) {
      const r = transition(this.t, this.state, input);
      this.state = r.state;
      for (const e of r.effects) if (e.type === 'timer') this.deadline = e.ms === null ? null : this.now + e.ms;
      out.push(...r.effects);
    }
    this.log.push(...out);
    return out;
  }

  /** Moves time by `ms`, firing the timer when it falls due. */
  advance(ms: number): LinkEffect[] {
    const out: LinkEffect[] = [];
    const end = this.now + ms;
    while (this.deadline !== null && this.deadline <= end) {
      this.now = this.deadline;
      this.deadline = null;
      out.push(...this.feed({ type: 'timeout' }));
    }
    this.now = end;
    return out;
  }

  writes(what?: string): number {
    return this.log.filter((e) => e.type === 'write' && (what === undefined || e.what === what)).length;
  }
  outcome(id: number): LinkEffect | undefined {
    return this.log.find((e) => (e.type === 'response' || e.type === 'failed') && e.id === id);
  }
}

describe('link machine: sending (§2.2.2.1)', () => {
  it('sends, waits 2 s for ACK, then 10 s for the response of a non-blocking command', () => {
    const h = new Harness();
    expect(h.feed({ type: 'submit', cmd: cmd(1) })).toEqual([
      { type: 'write', bytes: cmd(1).wire, what: 'command' },
      { type: 'timer', ms: 2000 },
    ]);
    expect(h.feed(ACK)).toEqual([
      { type: 'acked', id: 1 },
      { type: 'timer', ms: 10_000 },
    ]);
    expect(h.feed(frame('OPN000'))).toEqual([
      { type: 'response', id: 1, data: Buffer.from('OPN000') },
      { type: 'timer', ms: null },
    ]);
    expect(h.state.kind).toBe('idle');
  });

  it('resends on NAK and succeeds on the third send', () => {
    const h = new Harness();
    h.feed({ type: 'submit', cmd: cmd(1) }, NAK, NAK, ACK, frame('OPN000'));
    expect(h.writes('command')).toBe(3);
    expect(h.outcome(1)).toMatchObject({ type: 'response' });
  });

  it('gives up after the third NAK, then discards until 500 ms of silence', () => {
    const h = new Harness();
    h.feed({ type: 'submit', cmd: cmd(1) }, { type: 'submit', cmd: cmd(2) }, NAK, NAK, NAK);
    expect(h.writes('command')).toBe(3);
    expect(h.outcome(1)).toEqual({ type: 'failed', id: 1, reason: 'nak' });
    expect(h.state.kind).toBe('draining');
    h.advance(400);
    h.feed({ type: 'activity' }, frame('GARBAGE'));
    expect(h.advance(499)).toEqual([]);
    expect(h.advance(1)).toEqual([
      { type: 'drop-partial' },
      { type: 'write', bytes: cmd(2).wire, what: 'command' },
      { type: 'timer', ms: 2000 },
    ]);
  });

  it('never sends a queued command that cannot be sealed when its turn comes: it fails unsent, the next goes', () => {
    const h = new Harness();
    const unsealable: LinkCommand = { id: 2, name: 'GCD', wire: undefined, blocking: true };
    h.feed({ type: 'submit', cmd: cmd(1) }, { type: 'submit', cmd: unsealable }, { type: 'submit', cmd: cmd(3) }, ACK);
    expect(h.feed(frame('DSP003'))).toEqual([
      { type: 'response', id: 1, data: Buffer.from('DSP003') },
      { type: 'failed', id: 2, reason: 'unsealable' },
      { type: 'write', bytes: cmd(3).wire, what: 'command' },
      { type: 'timer', ms: 2000 },
    ]);
    expect(h.writes('command')).toBe(2);
  });

  it('fails with no-ack when neither ACK nor NAK comes within 2 s, then sends CAN to resynchronise', () => {
    const h = new Harness();
    h.feed({ type: 'submit', cmd: cmd(1) }, { type: 'submit', cmd: cmd(2) });
    expect(h.advance(1999)).toEqual([]);
    expect(h.advance(1)).toEqual([
      { type: 'failed', id: 1, reason: 'no-ack' },
      { type: 'write', bytes: Uint8Array.of(0x18), what: 'can' },
      { type: 'timer', ms: 2000 },
    ]);
    // EOT: the pinpad is idle again; the next command goes
    expect(h.feed(EOT)).toEqual([
      { type: 'write', bytes: cmd(2).wire, what: 'command' },
      { type: 'timer', ms: 2000 },
    ]);
  });
});

describe('link machine: responses (§2.2.2.2)', () => {
  it('an answer whose ACK was lost on the line is taken as ACK and answer', () => {
    const h = new Harness();
    h.feed({ type: 'submit', cmd: cmd(1) });
    expect(h.feed(frame('DSP000'))).toEqual([
      { type: 'acked', id: 1 },
      { type: 'timer', ms: 10_000 },
      { type: 'response', id: 1, data: Buffer.from('DSP000') },
      { type: 'timer', ms: null },
    ]);
  });

  it('times a non-blocking command out after 10 s, then sends CAN to resynchronise (§2.2.2.3)', () => {
    const h = new Harness();
    h.feed({ type: 'submit', cmd: cmd(1) }, ACK);
    expect(h.advance(9999)).toEqual([]);
    expect(h.advance(1)).toEqual([
      { type: 'failed', id: 1, reason: 'timeout' },
      { type: 'write', bytes: Uint8Array.of(0x18), what: 'can' },
      { type: 'timer', ms: 2000 },
    ]);
    expect(h.feed(EOT)).toEqual([{ type: 'timer', ms: null }]);
    expect(h.state.kind).toBe('idle');
  });

  it('a resynchronising CAN that gets no EOT three times reports the pinpad gone', () => {
    const h = new Harness();
    h.feed({ type: 'submit', cmd: cmd(1) }, ACK);
    h.advance(10_000 + 6000);
    expect(h.writes('can')).toBe(3);
    expect(h.log).toContainEqual({ type: 'resync-failed' });
  });

  it('the 10 s of a non-blocking command run to the first byte of the answer (§2.2.3 flowchart), not to its end', () => {
    const h = new Harness();
    h.feed({ type: 'submit', cmd: cmd(1) }, ACK);
    h.advance(9000);
    // noise that starts no packet does not stop the clock
    expect(h.feed({ type: 'activity', started: false })).toEqual([]);
    // the answer's SYN at 9.9 s: the inter-byte time (the owner's) guards the rest
    h.advance(900);
    expect(h.feed({ type: 'activity', started: true })).toEqual([{ type: 'timer', ms: null }]);
    expect(h.advance(5000)).toEqual([]);
    h.feed(frame('GIX000'));
    expect(h.outcome(1)).toMatchObject({ type: 'response' });
  });

  it('a packet that stalls half-way (reported as a bad packet) is NAKed after silence and the retransmission taken', () => {
    const h = new Harness();
    h.feed({ type: 'submit', cmd: cmd(1, true) }, ACK, { type: 'activity', started: true }, { type: 'bad-frame' });
    expect(h.advance(500)).toEqual([
      { type: 'write', bytes: Uint8Array.of(0x15), what: 'nak' },
      { type: 'timer', ms: null },
    ]);
    h.feed(frame('GCD000'));
    expect(h.outcome(1)).toMatchObject({ type: 'response' });
  });

  it('waits without limit for a blocking command, passing notifications on', () => {
    const h = new Harness();
    h.feed({ type: 'submit', cmd: cmd(1, true) }, ACK);
    expect(h.deadline).toBeNull();
    expect(h.advance(3_600_000)).toEqual([]);
    expect(h.feed(frame('NTM000032INSIRA OU PASSE O CARTAO', true))).toEqual([
      { type: 'notification', id: 1, data: Buffer.from('NTM000032INSIRA OU PASSE O CARTAO') },
    ]);
    h.feed(frame('GCD000'));
    expect(h.outcome(1)).toMatchObject({ type: 'response' });
  });

  it('answers a bad CRC with NAK after the line falls silent, and gives up at the third bad reception', () => {
    const h = new Harness();
    h.feed({ type: 'submit', cmd: cmd(1) }, ACK, { type: 'bad-frame' });
    expect(h.writes('nak')).toBe(0);
    h.advance(300);
    h.feed({ type: 'activity' });
    h.advance(499);
    expect(h.writes('nak')).toBe(0);
    h.advance(1);
    expect(h.writes('nak')).toBe(1);
    h.feed({ type: 'bad-frame' });
    h.advance(500);
    expect(h.writes('nak')).toBe(2);
    h.feed({ type: 'bad-frame' });
    expect(h.outcome(1)).toEqual({ type: 'failed', id: 1, reason: 'bad-response' });
    expect(h.writes('nak')).toBe(2);
  });

  it('takes the retransmission after a NAK', () => {
    const h = new Harness();
    h.feed({ type: 'submit', cmd: cmd(1) }, ACK, { type: 'bad-frame' });
    h.advance(500);
    h.feed(frame('DSP000'));
    expect(h.outcome(1)).toEqual({ type: 'response', id: 1, data: Buffer.from('DSP000') });
  });
});

describe('link machine: cancel (§2.2.2.3)', () => {
  it('sends CAN for the command on the wire and fails it as cancelled on EOT, then runs the next', () => {
    const h = new Harness();
    h.feed({ type: 'submit', cmd: cmd(1, true) }, ACK, { type: 'submit', cmd: cmd(2) });
    expect(h.feed({ type: 'cancel', id: 1 })).toEqual([
      { type: 'write', bytes: Uint8Array.of(0x18), what: 'can' },
      { type: 'timer', ms: 2000 },
    ]);
    h.feed(frame('NTM000000', true), frame('GCD000'));
    expect(h.outcome(1)).toBeUndefined();
    h.feed(EOT);
    expect(h.outcome(1)).toEqual({ type: 'failed', id: 1, reason: 'cancelled' });
    expect(h.log.at(-2)).toEqual({ type: 'write', bytes: cmd(2).wire, what: 'command' });
  });

  it('retries CAN three times, then fails the command as cancel-unanswered', () => {
    const h = new Harness();
    h.feed({ type: 'submit', cmd: cmd(1, true) }, ACK, { type: 'cancel', id: 1 });
    h.advance(2000);
    h.advance(2000);
    expect(h.writes('can')).toBe(3);
    h.advance(2000);
    expect(h.outcome(1)).toEqual({ type: 'failed', id: 1, reason: 'cancel-unanswered' });
  });

  it('drops a queued command without touching the wire', () => {
    const h = new Harness();
    h.feed({ type: 'submit', cmd: cmd(1) }, { type: 'submit', cmd: cmd(2) });
    expect(h.feed({ type: 'cancel', id: 2 })).toEqual([{ type: 'failed', id: 2, reason: 'cancelled' }]);
    expect(h.feed({ type: 'cancel', id: 99 })).toEqual([]);
    expect(h.writes('can')).toBe(0);
  });
});

describe('link machine: queue, probe, down', () => {
  it('runs queued commands one at a time, in order', () => {
    const h = new Harness();
    h.feed({ type: 'submit', cmd: cmd(1) }, { type: 'submit', cmd: cmd(2) }, { type: 'submit', cmd: cmd(3) });
    expect(h.writes('command')).toBe(1);
    h.feed(ACK, frame('R1'), ACK, frame('R2'), ACK, frame('R3'));
    const order = h.log.filter((e) => e.type === 'response').map((e) => (e as { id: number }).id);
    expect(order).toEqual([1, 2, 3]);
  });

  it('probes only the idle link: never a CAN while a blocking command runs', () => {
    const h = new Harness();
    h.feed({ type: 'submit', cmd: cmd(1, true) }, ACK);
    expect(h.feed({ type: 'probe' })).toEqual([]);
    h.feed(frame('GCD000'));
    expect(h.feed({ type: 'probe' })).toEqual([
      { type: 'write', bytes: Uint8Array.of(0x18), what: 'can' },
      { type: 'timer', ms: 2000 },
    ]);
    expect(h.feed(EOT)).toEqual([
      { type: 'probed', ok: true },
      { type: 'timer', ms: null },
    ]);
  });

  it('reports a probe that gets no EOT after three CANs', () => {
    const h = new Harness();
    h.feed({ type: 'probe' });
    h.advance(6000);
    expect(h.writes('can')).toBe(3);
    expect(h.log).toContainEqual({ type: 'probed', ok: false });
  });

  it('fails the command in flight and the queue when the link goes down, refuses while down, and resumes on up', () => {
    const h = new Harness();
    h.feed({ type: 'submit', cmd: cmd(1, true) }, ACK, { type: 'submit', cmd: cmd(2) }, { type: 'down' });
    expect(h.outcome(1)).toEqual({ type: 'failed', id: 1, reason: 'disconnected' });
    expect(h.outcome(2)).toEqual({ type: 'failed', id: 2, reason: 'disconnected' });
    expect(h.deadline).toBeNull();
    expect(h.feed({ type: 'submit', cmd: cmd(3) })).toEqual([{ type: 'failed', id: 3, reason: 'disconnected' }]);
    h.feed({ type: 'up' }, { type: 'submit', cmd: cmd(4) }, ACK, frame('R4'));
    expect(h.outcome(4)).toMatchObject({ type: 'response' });
  });

  it('validates timing overrides', () => {
    expect(linkTimings({ ackMs: 50 }).ackMs).toBe(50);
    expect(() => linkTimings({ silenceMs: 0 })).toThrow();
    try {
      linkTimings({ sendTries: 1.5 });
    } catch (e) {
      expect(isPinpadError(e, 'PINPAD_INVALID_ARGUMENT')).toBe(true);
    }
  });
});

describe('link machine properties', () => {
  const input: fc.Arbitrary<LinkInput> = fc.oneof(
    fc.integer({ min: 1, max: 6 }).map((id) => ({ type: 'submit' as const, cmd: cmd(id, id % 2 === 0) })),
    fc.integer({ min: 1, max: 6 }).map((id) => ({ type: 'cancel' as const, id })),
    fc.constantFrom<LinkInput>(
      { type: 'probe' },
      ACK,
      NAK,
      EOT,
      { type: 'control', byte: 0x18 },
      { type: 'bad-frame' },
      { type: 'activity' },
      { type: 'activity', started: true },
      { type: 'timeout' },
      { type: 'frame', data: Uint8Array.of(0x41), notification: false },
      { type: 'frame', data: Uint8Array.of(0x4e), notification: true },
      { type: 'down' },
      { type: 'up' },
    ),
  );

  it('never throws, keeps at most one command on the wire, and settles every command exactly once', () => {
    fc.assert(
      fc.property(fc.array(input, { maxLength: 80 }), (inputs) => {
        const h = new Harness();
        let submitted = 0;
        for (const i of inputs) {
          // ids are reused across submits; give each a unique id so settlement can be counted
          const x: LinkInput =
            i.type === 'submit'
              ? { type: 'submit', cmd: { ...i.cmd, id: 1000 + submitted++ } }
              : i.type === 'cancel'
                ? { type: 'cancel', id: 1000 + (i.id % Math.max(submitted, 1)) }
                : i;
          h.feed(x);
          if (h.state.kind === 'idle' || h.state.kind === 'down') expect(h.state.queue.length).toBe(0);
        }
        // every command ends without the link going down: the owner's inter-byte timer turns a stalled
        // packet into a bad frame, and the one timer fires; a blocking command waits on its caller's cancel
        for (let k = 0; k < 2000 && h.state.kind !== 'idle'; k++) {
          if (h.state.kind === 'await-response' && h.state.cmd.blocking && !h.state.nakPending)
            h.feed({ type: 'cancel', id: h.state.cmd.id });
          else h.feed(k % 2 ? { type: 'timeout' } : { type: 'bad-frame' });
        }
        expect(['idle', 'down']).toContain(h.state.kind);
        h.feed({ type: 'down' });
        const settled = h.log
          .filter((e) => e.type === 'response' || e.type === 'failed')
          .map((e) => (e as { id: number }).id);
        expect(new Set(settled).size).toBe(settled.length);
        expect(settled.filter((id) => id >= 1000).length).toBe(submitted);
      }),
      { numRuns: 1000, seed: fcSeed('link machine') },
    );
  });
});
