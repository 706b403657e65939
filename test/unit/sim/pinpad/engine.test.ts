import { describe, expect, it } from 'vitest';
import { DSP, FrameDecoder, GCD, encodeFrame, type LinkEvent } from '../../../../drivers/pinpad/index.js';
import { SimEngine } from '../../../../src/sim/pinpad/engine.js';
import { handlersFor } from '../../../../src/sim/pinpad/handlers/index.js';
import { profile } from '../../../../src/sim/pinpad/profile.js';
import { SIM_COMMANDS } from '../../../../src/sim/pinpad/spec/commands.js';
import { parseControl } from '../../../../src/sim/pinpad/control.js';

/** A SimEngine with its output decoded, as the terminal would see it. */
function sim(classicOnly = false) {
  const events: LinkEvent[] = [];
  const decoder = new FrameDecoder();
  const engine = new SimEngine({
    profile: profile({ classicOnly }),
    handlers: handlersFor(classicOnly),
    output: (b) => events.push(...decoder.push(b)),
    typingMs: null,
  });
  const text = (e: LinkEvent | undefined) => (e?.type === 'frame' ? Buffer.from(e.data).toString('latin1') : e);
  const settle = () => new Promise((r) => setTimeout(r, 5));
  return { engine, events, text, settle };
}

describe('virtual pinpad, link side (§6.2.1)', () => {
  it('ACKs a valid packet and answers; NAKs a bad CRC; answers CAN with EOT whatever its state', async () => {
    const s = sim();
    s.engine.receive(encodeFrame(DSP.encode('oi')));
    await s.settle();
    expect(s.events[0]).toEqual({ type: 'control', byte: 0x06 });
    expect(s.text(s.events[1])).toBe('DSP000');
    const bad = Uint8Array.from(encodeFrame(DSP.encode('oi')));
    bad[bad.length - 1]! ^= 1;
    s.engine.receive(bad);
    // §6.2.1: the rest of a bad packet is discarded until 500 ms of silence, then NAK
    expect(s.events.slice(2)).toEqual([]);
    for (const end = Date.now() + 15_000; s.events.length < 3 && Date.now() < end;)
      await new Promise((r) => setTimeout(r, 20));
    s.engine.receive(Uint8Array.of(0x18));
    expect(s.events.slice(2)).toEqual([
      { type: 'control', byte: 0x15 },
      { type: 'control', byte: 0x04 },
    ]);
  });

  it('resends its last answer on NAK', async () => {
    const s = sim();
    s.engine.receive(encodeFrame(DSP.encode('oi')));
    await s.settle();
    s.engine.receive(Uint8Array.of(0x15));
    expect(s.events.map(s.text)).toEqual([{ type: 'control', byte: 6 }, 'DSP000', 'DSP000']);
  });

  it('answers ERR010 to a command it does not know (classic pinpad asked GIX)', async () => {
    const s = sim(true);
    s.engine.receive(encodeFrame(Buffer.from('GIX')));
    await s.settle();
    expect(s.text(s.events[1])).toBe('ERR010');
  });

  it("a classic pinpad takes DEX (§3.3's table does not tick it Abecs: BibComp has it, §3.1.3) and shows its lines", async () => {
    const s = sim(true);
    s.engine.receive(encodeFrame(Buffer.from('DEX018015SO CLASSICO\rDEX', 'latin1')));
    await s.settle();
    expect(s.text(s.events[1])).toBe('DEX000');
    expect(s.engine.state.display).toEqual(['SO CLASSICO', 'DEX']);
  });

  it('a classic pinpad knows exactly what a current one knows less the commands the specification ticks Abecs (§3.2.2)', () => {
    const current = handlersFor(false);
    const classic = handlersFor(true);
    for (const id of current.keys()) {
      const abecs = SIM_COMMANDS.get(id)?.abecs;
      expect(abecs, `${id} is a row of the specification's tables`).toBeDefined();
      expect(classic.has(id), id).toBe(!abecs);
    }
  });

  it('aborts a blocking command on CAN (EOT, no answer) and on a new command (§6.2.1)', async () => {
    const s = sim();
    s.engine.receive(encodeFrame(GCD.encode({ message: 1 })));
    await s.settle();
    s.engine.receive(Uint8Array.of(0x18));
    await s.settle();
    expect(s.events.map(s.text)).toEqual([
      { type: 'control', byte: 6 },
      'NTM000012DIGITE O DDD',
      { type: 'control', byte: 4 },
    ]);
    s.engine.receive(encodeFrame(GCD.encode({ message: 2 })));
    await s.settle();
    s.engine.receive(encodeFrame(DSP.encode('novo')));
    await s.settle();
    expect(s.events.map(s.text).slice(3)).toEqual([
      { type: 'control', byte: 6 },
      'NTM000014REDIGITE O DDD',
      { type: 'control', byte: 6 },
      'DSP000',
    ]);
  });

  it('injects faults: NAK storm, lost ACK, bad CRC then the right packet on NAK', async () => {
    const s = sim();
    s.engine.inject({ kind: 'nak-storm', count: 2 });
    s.engine.receive(encodeFrame(DSP.encode('a')));
    s.engine.receive(encodeFrame(DSP.encode('a')));
    expect(s.events).toEqual([
      { type: 'control', byte: 0x15 },
      { type: 'control', byte: 0x15 },
    ]);
    s.events.length = 0;
    s.engine.inject({ kind: 'lost-ack' });
    s.engine.inject({ kind: 'bad-crc' });
    s.engine.receive(encodeFrame(DSP.encode('b')));
    await s.settle();
    expect(s.events).toEqual([{ type: 'bad-frame', reason: 'crc', length: 10 }]);
    s.engine.receive(Uint8Array.of(0x15));
    expect(s.text(s.events[1])).toBe('DSP000');
  });
});

describe('virtual pinpad control lines', () => {
  it('accepts the documented commands and refuses the rest with a reason', () => {
    expect(parseControl('{"cmd":"fault","fault":{"kind":"nak-storm","count":3}}')).toEqual({
      cmd: 'fault',
      fault: { kind: 'nak-storm', count: 3 },
    });
    expect(parseControl('{"cmd":"typing","ms":null}')).toEqual({ cmd: 'typing', ms: null });
    expect(parseControl('{"cmd":"unplug","replugAfterMs":100}')).toEqual({ cmd: 'unplug', replugAfterMs: 100 });
    expect(parseControl('not json')).toEqual({ error: 'not JSON' });
    expect(parseControl('{"cmd":"fault","fault":{"kind":"meteor"}}')).toHaveProperty('error');
    expect(parseControl('{"cmd":"fault","fault":{"kind":"delay"}}')).toEqual({ error: 'delay needs ms' });
    expect(parseControl('{"cmd":"dance"}')).toEqual({ error: 'unknown cmd dance' });
  });
});
