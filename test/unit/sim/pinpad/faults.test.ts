import { describe, expect, it } from 'vitest';
import { FrameDecoder, encodeFrame, type LinkEvent } from '../../../../drivers/pinpad/index.js';
import { parseControl } from '../../../../src/sim/pinpad/control.js';
import { SimEngine } from '../../../../src/sim/pinpad/engine.js';
import { handlersFor } from '../../../../src/sim/pinpad/handlers/index.js';
import { profile } from '../../../../src/sim/pinpad/profile.js';
import { cardSim } from '../../../../src/sim/pinpad/card/index.js';
import { FAULT_KINDS, type Fault } from '../../../../src/sim/pinpad/faults.js';

/** An engine whose output is read by the driver's decoder (an independent reader), with raw bytes kept too. */
function rig() {
  const raw: number[] = [];
  const events: LinkEvent[] = [];
  const decoder = new FrameDecoder();
  const unplugs: (number | undefined)[] = [];
  const engine = new SimEngine({
    profile: profile(),
    handlers: handlersFor(false),
    output: (b) => {
      raw.push(...b);
      events.push(...decoder.push(b).filter((e) => e.type !== 'discarded'));
    },
    unplug: (ms) => unplugs.push(ms),
    typingMs: null,
  });
  const seen = () =>
    events.map((e) =>
      e.type === 'frame'
        ? Buffer.from(e.data).toString('latin1')
        : e.type === 'control'
          ? `<${e.byte}>`
          : `<${e.type}>`,
    );
  return { engine, raw, events, unplugs, seen, decoder };
}
const settle = (ms = 30) => new Promise((r) => setTimeout(r, ms));
/** Waits until `cond` holds (generous: this machine is loaded; never a bound on how long things take). */
async function until(cond: () => boolean, what: string, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await settle(10);
  }
}
const par = (id: number, v: string) =>
  Buffer.concat([Buffer.of(id >> 8, id & 0xff, 0, v.length), Buffer.from(v, 'latin1')]);
const cmd = (id: string, ...ps: Buffer[]) => {
  const b = Buffer.concat(ps);
  return encodeFrame(Uint8Array.from(Buffer.concat([Buffer.from(id + String(b.length).padStart(3, '0')), b])));
};
const DSP = cmd('DSP', Buffer.from('OLA'.padEnd(32)));
const GCX = cmd('GCX', par(0x15, '251125'), par(0x16, '120000'), par(0x13, '000000001010'));

describe('faults a serial line and real firmware have, as the virtual pinpad injects them', () => {
  it('truncated answer: the answer stops half-way, no ETB ever comes; a NAK brings the whole answer', async () => {
    const r = rig();
    r.engine.inject({ kind: 'truncated-answer' });
    r.engine.receive(DSP);
    await settle();
    expect(r.seen()).toEqual(['<6>']);
    expect(r.raw.length).toBeGreaterThan(1);
    expect(r.raw).not.toContain(0x17);
    r.decoder.reset();
    r.engine.receive(Uint8Array.of(0x15));
    expect(r.seen()).toEqual(['<6>', 'DSP000']);
  });

  it('lost answer: ACK and then nothing; the answer is still there for a NAK', async () => {
    const r = rig();
    r.engine.inject({ kind: 'lost-answer' });
    r.engine.receive(DSP);
    await settle();
    expect(r.seen()).toEqual(['<6>']);
    r.engine.receive(Uint8Array.of(0x15));
    expect(r.seen()).toEqual(['<6>', 'DSP000']);
  });

  it('late answer: a delay past the 10 s a non-blocking command is given comes late (1.2 s here)', async () => {
    const r = rig();
    r.engine.inject({ kind: 'delay', ms: 1200 });
    r.engine.receive(DSP);
    await settle(300);
    expect(r.seen()).toEqual(['<6>']); // not before its delay (timers only ever fire late)
    await until(() => r.seen().length === 2, 'the late answer');
    expect(r.seen()).toEqual(['<6>', 'DSP000']);
  });

  it('noise with control bytes: stray SYN, ACK, NAK, EOT before the answer', async () => {
    const r = rig();
    r.engine.inject({ kind: 'garbage', bytes: 10, control: true });
    r.engine.receive(DSP);
    await settle();
    const answerAt = r.raw.lastIndexOf(0x16);
    const noise = r.raw.slice(1, answerAt);
    expect(noise).toEqual(expect.arrayContaining([0x16, 0x06, 0x15, 0x04]));
  });

  it('a clear NTM inside a secure session (the terminal must not take it as sealed)', async () => {
    const r = rig();
    let sealedCalls = 0;
    r.engine.layer = { open: (d) => d, seal: (d) => (sealedCalls++, Uint8Array.from([0x12, ...d])) };
    r.engine.inject({ kind: 'clear-ntm' });
    cardSim(r.engine.state).deck.choose({ action: 'nothing' });
    r.engine.receive(GCX);
    await settle();
    const ntm = r.events.find((e) => e.type === 'frame');
    expect(ntm && ntm.type === 'frame' && Buffer.from(ntm.data).toString('latin1').startsWith('NTM000')).toBe(true);
    r.engine.receive(Uint8Array.of(0x18));
    expect(sealedCalls).toBe(0);
  });

  it('a CAN while a card is held drops the EMV context (as some firmware does): GOX after it is ST_INVCALL', async () => {
    const r = rig();
    r.engine.receive(GCX);
    await until(() => r.seen().includes('GCX000') || r.seen().some((x) => x.startsWith('GCX000')), 'GCX');
    expect(cardSim(r.engine.state).held).toBeDefined();
    r.engine.inject({ kind: 'can-drops-emv' });
    r.engine.receive(Uint8Array.of(0x18));
    expect(cardSim(r.engine.state).held).toBeUndefined();
    r.engine.receive(cmd('GOX', par(0x10, '01'), par(0x02, '3'), par(0x09, '01')));
    await until(() => r.seen().some((x) => x.startsWith('GOX')), 'GOX');
    expect(r.seen().at(-1)).toBe('GOX010');
  });

  it('a reboot with the line up: the card, the session and the running command are gone, the link stays', async () => {
    const r = rig();
    r.engine.receive(GCX);
    await until(() => r.seen().some((x) => x.startsWith('GCX000')), 'GCX');
    r.engine.state.session.secure = { ksec: new Uint8Array(16) };
    r.engine.inject({ kind: 'reboot' });
    expect(cardSim(r.engine.state).held).toBeUndefined();
    expect(r.engine.state).toMatchObject({ session: {}, opened: false, reboots: 1 });
    r.engine.receive(DSP); // the same line: the rebooted pinpad answers
    await until(() => r.seen().at(-1) === 'DSP000', 'DSP');
    expect(r.unplugs).toEqual([]);
  });

  it('a plain CAN keeps the card held', async () => {
    const r = rig();
    r.engine.receive(GCX);
    await until(() => r.seen().some((x) => x.startsWith('GCX000')), 'GCX');
    r.engine.receive(Uint8Array.of(0x18));
    expect(cardSim(r.engine.state).held).toBeDefined();
  });

  it('unplug at every step of a named command: before its ACK, while it runs, half-way through its answer', async () => {
    for (const when of ['before-ack', 'mid-command', 'mid-answer'] as const) {
      const r = rig();
      r.engine.inject({ kind: 'disconnect', when, command: 'GCX', replugAfterMs: 100 });
      r.engine.receive(DSP); // another command: untouched
      await settle();
      expect(r.seen(), when).toEqual(['<6>', 'DSP000']);
      r.engine.receive(GCX);
      await until(() => r.unplugs.length > 0, `the unplug ${when}`);
      expect(r.unplugs, when).toEqual([100]);
      const after = r.raw.slice(r.raw.lastIndexOf(0x06) + 1);
      if (when === 'before-ack') expect(r.seen().length).toBe(2);
      if (when === 'mid-command') expect(r.seen().slice(2)).toEqual(['<6>']);
      if (when === 'mid-answer') expect(after.length).toBeGreaterThan(0);
    }
  });

  it('the control port takes every fault kind and refuses an unknown step', () => {
    for (const kind of FAULT_KINDS) {
      const fault = (kind === 'delay' ? { kind, ms: 11_000 } : { kind }) as Fault;
      expect(parseControl(JSON.stringify({ cmd: 'fault', fault }))).toEqual({ cmd: 'fault', fault });
    }
    expect(
      parseControl(JSON.stringify({ cmd: 'fault', fault: { kind: 'disconnect', when: 'mid-answer', command: 'GOX' } })),
    ).toMatchObject({ cmd: 'fault' });
    expect(parseControl(JSON.stringify({ cmd: 'fault', fault: { kind: 'disconnect', when: 'later' } }))).toHaveProperty(
      'error',
    );
  });
});
