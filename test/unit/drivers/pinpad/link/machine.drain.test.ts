import { describe, expect, it } from 'vitest';
import {
  INITIAL_LINK_STATE,
  transition,
  type LinkCommand,
  type LinkEffect,
  type LinkInput,
  type LinkState,
} from '../../../../../drivers/pinpad/link/machine.js';
import { SPEC_TIMINGS } from '../../../../../drivers/pinpad/link/timings.js';

const T = SPEC_TIMINGS;
const NAK = { type: 'control', byte: 0x15 } as const;
const ACK = { type: 'control', byte: 0x06 } as const;
const cmd = (id: number): LinkCommand => ({
  id,
  name: `C${id}`,
  wire: Uint8Array.of(0x16, id, 0x17, 0, 0),
  blocking: false,
});

/** Feeds inputs to the pure machine, keeping its state and every effect. */
function run(...inputs: LinkInput[]): { state: LinkState; effects: LinkEffect[] } {
  let state = INITIAL_LINK_STATE;
  const effects: LinkEffect[] = [];
  for (const input of [{ type: 'up' } as const, ...inputs]) {
    const r = transition(T, state, input);
    state = r.state;
    effects.push(...r.effects);
  }
  return { state, effects };
}

/** A device that never falls silent: a chunk of bytes every 100 ms from `from`, for `ms`. */
const streaming = (from: number, ms: number): LinkInput[] =>
  Array.from({ length: ms / 100 }, (_, i) => ({ type: 'activity', at: from + i * 100 }) as const);

describe('the discard after an error is bounded (drainMaxMs, 5 s by default)', () => {
  it('a device streaming bytes after three NAKs keeps the link draining only up to drainMaxMs, then the next command goes', () => {
    const during = run(
      { type: 'submit', cmd: cmd(1) },
      { type: 'submit', cmd: cmd(2) },
      NAK,
      NAK,
      NAK,
      ...streaming(0, 4000),
    );
    expect(during.state.kind).toBe('draining'); // under the bound the silence is still awaited
    const after = run(
      { type: 'submit', cmd: cmd(1) },
      { type: 'submit', cmd: cmd(2) },
      NAK,
      NAK,
      NAK,
      ...streaming(0, T.drainMaxMs + 100),
    );
    expect(after.state.kind).toBe('await-ack');
    expect(after.effects).toContainEqual({ type: 'write', bytes: cmd(2).wire, what: 'command' });
  });

  it('the wait for silence before the NAK of a bad answer is bounded the same way', () => {
    const r = run({ type: 'submit', cmd: cmd(1) }, ACK, { type: 'bad-frame' }, ...streaming(0, T.drainMaxMs + 100));
    expect(r.effects.filter((e) => e.type === 'write' && e.what === 'nak')).toHaveLength(1);
    expect(r.state).toMatchObject({ kind: 'await-response', nakPending: false });
  });
});
