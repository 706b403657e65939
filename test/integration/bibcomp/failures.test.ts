/**
 * A library that fails (issue 19, "Must show"): one that answers an error code, one that never
 * leaves PPCOMP_PROCESSING, one whose call never returns. Each gives the caller a clear failure and
 * a working cancel, and the event loop keeps running (the calls are on koffi's worker threads).
 */
import { generateKeyPairSync } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BibcompTransport, loadBibcomp, type BibcompCalls } from '../../../drivers/bibcomp/index.js';
import {
  card,
  SecurePinpad,
  isPinpadError,
  terminalKeyFromPem,
  type PinpadLinkEvent,
  type TerminalKey,
} from '../../../drivers/pinpad/index.js';
import { bibcompFaults, buildBibcomp } from '../../helpers/bibcomp-build.js';
import { startVirtualPinpad } from '../../helpers/virtual-pinpad.js';

const faults = bibcompFaults();
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  faults.set('none');
  for (const f of cleanup.splice(0).reverse()) await f();
});

let calls: BibcompCalls;
let terminalKey: TerminalKey;
beforeAll(() => {
  calls = loadBibcomp(buildBibcomp());
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicExponent: 0x10001 });
  terminalKey = terminalKeyFromPem(privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());
}, 60_000);

const until = async (what: string, f: () => boolean, ms = 20_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!f()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

async function bridged(callTimeoutMs = 15_000) {
  const sim = await startVirtualPinpad({ typingMs: null }, cleanup);
  const wedged = { value: false };
  const transport = () =>
    new BibcompTransport({ calls, wedged, port: `127.0.0.1:${sim.port}`, pollMs: 5, callTimeoutMs });
  const pinpad = new SecurePinpad({
    transport,
    terminalKey,
    probeIntervalMs: 0,
    timings: { responseMs: 1500 },
    reconnect: { initialMs: 50, maxMs: 200 },
  });
  cleanup.push(() => pinpad.close());
  const events: PinpadLinkEvent[] = [];
  pinpad.on('link', (e) => events.push(e));
  await pinpad.connect();
  return { sim, pinpad, events, wedged };
}

describe('a BibComp library that fails', () => {
  it('an error code from the library (31, its port lost) fails the command as a disconnection; the driver reopens the library and goes on', async () => {
    const { sim, pinpad, events } = await bridged();
    faults.set('error');
    await expect(pinpad.display('falha')).rejects.toSatisfy((e) => isPinpadError(e, 'PINPAD_DISCONNECTED'));
    faults.set('none');
    await until('the reconnect', () => events.some((e) => e.state === 'reconnected'));
    await pinpad.display('depois');
    expect(sim.engine.state.display[0]).toBe('depois');
  }, 30_000);

  it('a library that never leaves PPCOMP_PROCESSING: a blocking command is cancelled (PP_Abort), a non-blocking one times out, then the link works', async () => {
    const { sim, pinpad } = await bridged();
    faults.set('stuck');
    const ac = new AbortController();
    // GPN (§3.3.11, blocking): the PIN nobody types; the library answers PROCESSING for ever
    const p = pinpad.run(
      card.GPN,
      { keyIndex: 1, message: ['DIGITE A SENHA', ''], pan: '5555666677778884' },
      {
        signal: ac.signal,
      },
    );
    const cans = sim.engine.state.cans;
    await until('GPN at the pinpad', () => sim.engine.state.received.includes('GPN'));
    ac.abort();
    await expect(p).rejects.toSatisfy((e) => isPinpadError(e, 'PINPAD_CANCELLED'));
    // PP_Abort's CAN crosses a socket to the pinpad: waited for, never asserted at the instant the cancel settles
    await until('the CAN at the pinpad', () => sim.engine.state.cans > cans);
    await expect(pinpad.display('preso')).rejects.toSatisfy((e) => isPinpadError(e, 'PINPAD_TIMEOUT'));
    faults.set('none');
    await pinpad.display('depois');
    expect(sim.engine.state.display[0]).toBe('depois');
  }, 30_000);

  it('a call that never returns wedges the bridge: the command fails, the event loop runs on, no further call is made', async () => {
    const { pinpad, wedged } = await bridged(1500);
    faults.set('block');
    let ticks = 0;
    const timer = setInterval(() => ticks++, 50);
    cleanup.push(() => Promise.resolve(clearInterval(timer)));
    // the library's worker thread is released when the fault is lifted (afterEach), after the test
    // whichever comes first: the driver's 10 s (here 1.5 s) for the answer, or the bridge's call deadline
    await expect(pinpad.display('bloqueio')).rejects.toSatisfy(
      (e) => isPinpadError(e, 'PINPAD_DISCONNECTED') || isPinpadError(e, 'PINPAD_TIMEOUT'),
    );
    await until('the wedge', () => wedged.value);
    expect(wedged).toMatchObject({ value: true, call: 'PP_GenericCmd' });
    // the event loop ran while the call was held: timers fired (how many depends on the machine)
    await until('a timer tick', () => ticks > 0);
    // reconnecting refuses at once, naming the call; the pinpad stays disconnected until a restart
    await expect(pinpad.display('de novo')).rejects.toSatisfy((e) => isPinpadError(e, 'PINPAD_DISCONNECTED'));
  }, 30_000);
});
