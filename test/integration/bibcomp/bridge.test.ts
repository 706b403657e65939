/**
 * The driver through a BibComp library (drivers/bibcomp): the test library exports exactly PPCOMP.H,
 * and every classic command — GIN, DSP, GTS, the table load, GCR/GOC/FNC, GPN, RMC — goes as text
 * through PP_StartGenericCmd/PP_GenericCmd to the virtual pinpad over TCP. What the text cannot
 * carry (the Abecs commands, the secure channel) never reaches the library; card sales and typed card
 * numbers are refused by name with the specification's reason (drivers/bibcomp/reach.ts).
 */
import { generateKeyPairSync } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  BibcompCardGate,
  BibcompTransport,
  bibcompTransportFor,
  loadBibcomp,
  type BibcompCalls,
} from '../../../drivers/bibcomp/index.js';
import {
  card,
  isPinpadError,
  Pinpad,
  SecurePinpad,
  terminalKeyFromPem,
  type TerminalKey,
} from '../../../drivers/pinpad/index.js';
import { PinpadCardPort } from '../../../src/adapters/pinpad-card.js';
import { cardSim } from '../../../src/sim/pinpad/card/index.js';
import type { VirtualPinpad } from '../../../src/sim/pinpad/server.js';
import { TEST_CARDS } from '../../../tables/test-cards.js';
import records from '../../vectors/initialization/abecs-4.1-records.json' with { type: 'json' };
import { bibcompFaults, buildBibcomp } from '../../helpers/bibcomp-build.js';
import { startVirtualPinpad } from '../../helpers/virtual-pinpad.js';

const cleanup: (() => Promise<void>)[] = [];
const until = async (what: string, f: () => boolean, ms = 20_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!f()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

const faults = bibcompFaults();
let calls: BibcompCalls;
let terminalKey: TerminalKey;
beforeAll(() => {
  calls = loadBibcomp(buildBibcomp());
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicExponent: 0x10001 });
  terminalKey = terminalKeyFromPem(privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());
}, 60_000);

async function rig(profile: ConstructorParameters<typeof VirtualPinpad>[0] = {}) {
  const sim = await startVirtualPinpad({ typingMs: null, ...profile }, cleanup);
  const wedged = { value: false };
  const pinpad = new SecurePinpad({
    transport: () => bibcompTransportFor({ calls, wedged }, { port: `127.0.0.1:${sim.port}`, callTimeoutMs: 5000 }),
    terminalKey,
    probeIntervalMs: 0,
    reconnect: { initialMs: 50, maxMs: 200 },
  });
  cleanup.push(async () => {
    faults.set('none');
    await pinpad.close();
  });
  await pinpad.connect();
  return { sim, pinpad, deck: cardSim(sim.engine.state).deck };
}

describe('the driver through a BibComp library', () => {
  it('is a pinpad without secure channel to the driver: information from GIN, display, table version from GTS, all as text', async () => {
    const { sim, pinpad } = await rig();
    expect(pinpad.secure.recognition).toBe('classic');
    const info = await pinpad.info();
    expect(info).toMatchObject({ source: 'GIN', serialNumber: 'VPP0000000001' });
    await pinpad.display(['PELA BIBLIOTECA', 'CLASSICA']);
    expect(sim.engine.state.display).toEqual(['PELA BIBLIOTECA', 'CLASSICA']);
    // Latin-1 bytes, not UTF-8: "RETIRE O CARTÃO" is 15 characters of DSP_MSG's 32 (§3.3.5)
    await pinpad.display(['RETIRE O CARTÃO', '']);
    expect(sim.engine.state.display).toEqual(['RETIRE O CARTÃO', '']);
    expect(await pinpad.run(card.GTS, '03')).toMatch(/^.{10}$/);
    // only classic commands reached the pinpad: the Abecs ones were answered ERR010 by the bridge itself
    expect(sim.engine.state.received.every((id) => ['GIN', 'DSP', 'GTS'].includes(id))).toBe(true);
  }, 30_000);

  it('GCR (masked), the PIN by GPN with the PAN, RMC, each through the generic command', async () => {
    const { sim, pinpad, deck } = await rig();
    const c = TEST_CARDS.find((x) => x.pin === '4321')!;
    deck.choose({ pan: c.pan, via: 'stripe', pin: 'right' });
    const version = await pinpad.run(card.GTS, '03');
    const notes: string[] = [];
    pinpad.on('notification', (n) => notes.push(n.text));
    const r = await pinpad.run(card.GCR, {
      acquirer: '03',
      amount: 2500,
      date: '251125',
      time: '120000',
      tableVersion: version,
      contactless: false,
    });
    expect(r.card).toMatchObject({ cardType: 'stripe' });
    expect(r.card.maskedPan).toMatch(/^\d{8}\*+\d{4}$/);
    expect(JSON.stringify(r)).not.toContain(c.pan);
    const pin = await pinpad.run(card.GPN, { keyIndex: 1, message: ['DIGITE A SENHA', ''], pan: r.clear.pan() });
    expect(pin.block).toMatch(/^[0-9A-F]{16}$/);
    expect(pin.ksn).toMatch(/^[0-9A-F]{20}$/);
    r.clear.wipe();
    await pinpad.run(card.RMC, ['OBRIGADO', '']);
    expect(sim.engine.state.received).toEqual(expect.arrayContaining(['GCR', 'GPN', 'RMC']));
    expect(notes.length).toBeGreaterThan(0); // the pinpad's prompts came as PPCOMP_NOTIFY
  }, 30_000);

  it('a chip card through GCR, GOC and FNC', async () => {
    const { pinpad, deck } = await rig();
    deck.choose({ lastDigit: 0, via: 'chip', pin: 'right' });
    const r = await pinpad.run(card.GCR, {
      acquirer: '00',
      amount: 1500,
      date: '251125',
      time: '120000',
      tableVersion: await pinpad.run(card.GTS, '00'),
      contactless: false,
    });
    r.clear.wipe();
    expect(r.card.cardType).toBe('chip');
    const g = await pinpad.run(card.GOC, {
      amount: 1500,
      pinKeyIndex: 1,
      acquirerIndex: r.acquirerIndex,
      tags: ['95', '9F26', '9F27'],
    });
    expect(g).toMatchObject({ decision: 'online', pin: 'online' });
    const f = await pinpad.run(card.FNC, { outcome: 'approved', arc: '00', tags: ['9F27'] });
    expect(f.decision).toBe('approved');
    await pinpad.run(card.RMC, ['OBRIGADO', '']);
  }, 30_000);

  it('loads the EMV tables (TLI, TLR, TLE): the §4.1.1 record in force under its version', async () => {
    const { sim, pinpad } = await rig();
    const started = await card.startTableLoad(pinpad, { acquirer: '02', version: 'CLASSIC001' });
    expect(started.versionDiffers).toBe(true); // PPCOMP_TABEXP (20) is ST_TABVERDIF: the load goes on (§3.5.2)
    await pinpad.run(card.TLR, { records: [records.aid340.record] });
    await pinpad.run(card.TLE, undefined);
    expect(cardSim(sim.engine.state).tables.version('02')).toBe('CLASSIC001');
    expect(await pinpad.run(card.GTS, '02')).toBe('CLASSIC001');
    expect(sim.engine.state.received).toEqual(expect.arrayContaining(['TLI', 'TLR', 'TLE', 'GTS']));
  }, 30_000);

  it("refuses card sales and typed card numbers by name, with the specification's reason, before anything reaches the library", async () => {
    const { sim, pinpad, deck } = await rig();
    deck.choose({ lastDigit: 0, via: 'chip' });
    const gate = new BibcompCardGate(new card.ClassicCardPinpad(pinpad));
    const port = new PinpadCardPort({ pinpad: gate, acquirerIndex: 3, pinKeySlot: 1, dataKeySlot: 2 });
    const received = sim.engine.state.received.length;
    await expect(
      port.readCard({ merchantOrderId: 'x1', amount: 1500, method: 'credit' }, new AbortController().signal),
    ).rejects.toMatchObject({ code: 'PINPAD_UNSUPPORTED', message: expect.stringMatching(/^GCX: .*DUKPT.*§3\.6\.1/) });
    await expect(
      gate.run(card.EBX, { data: new Uint8Array(8), keyIndex: 2, iv: new Uint8Array(8) }),
    ).rejects.toMatchObject({
      code: 'PINPAD_UNSUPPORTED',
      message: expect.stringMatching(/^EBX: a typed card number needs GCD/),
    });
    expect(sim.engine.state.received.length).toBe(received);
  }, 30_000);

  it('a cancel at the card prompt goes out as PP_Abort; the link stays usable', async () => {
    const { sim, pinpad, deck } = await rig();
    deck.choose({ action: 'nothing' });
    const ac = new AbortController();
    const p = pinpad.run(
      card.GCR,
      {
        acquirer: '00',
        amount: 100,
        date: '251125',
        time: '120000',
        tableVersion: await pinpad.run(card.GTS, '00'),
        contactless: false,
      },
      { signal: ac.signal },
    );
    const end = Date.now() + 20_000;
    while (!sim.engine.state.received.includes('GCR') && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    ac.abort();
    const e = await p.then(
      () => null,
      (x: unknown) => x,
    );
    expect(isPinpadError(e, 'PINPAD_CANCELLED')).toBe(true);
    await until('the CAN at the pinpad', () => sim.engine.state.cans > 0);
    await pinpad.display(['DE NOVO', '']);
    expect(sim.engine.state.display).toEqual(['DE NOVO', '']);
  }, 30_000);

  it('a library stuck in PPCOMP_PROCESSING on PP_GenericCmd: the cancel still goes out (PP_Abort) and the link is usable after', async () => {
    const { sim, pinpad, deck } = await rig();
    deck.choose({ lastDigit: 0, via: 'chip' });
    const version = await pinpad.run(card.GTS, '00');
    faults.set('stuck');
    const ac = new AbortController();
    const p = pinpad.run(
      card.GCR,
      { acquirer: '00', amount: 100, date: '251125', time: '120000', tableVersion: version, contactless: false },
      { signal: ac.signal },
    );
    const end = Date.now() + 20_000;
    while (!sim.engine.state.received.includes('GCR') && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    const cans = sim.engine.state.cans;
    ac.abort();
    expect(
      isPinpadError(
        await p.then(
          () => null,
          (x: unknown) => x,
        ),
        'PINPAD_CANCELLED',
      ),
    ).toBe(true);
    await until('the CAN at the pinpad', () => sim.engine.state.cans > cans);
    faults.set('none');
    await pinpad.display(['SEGUE', '']);
    expect(sim.engine.state.display).toEqual(['SEGUE', '']);
  }, 30_000);

  it('a library error on PP_StartGenericCmd is a lost link: the command fails as disconnected and the driver reconnects', async () => {
    const { pinpad } = await rig();
    faults.set('error');
    const e = await pinpad.run(card.GCR, { again: true }).then(
      () => null,
      (x: unknown) => x,
    );
    expect(isPinpadError(e)).toBe(true);
    expect((e as { code: string }).code).toMatch(/PINPAD_DISCONNECTED|PINPAD_TIMEOUT/);
    faults.set('none');
    const end = Date.now() + 20_000;
    while (pinpad.status !== 'connected' && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    expect(pinpad.status).toBe('connected');
  }, 30_000);
});

describe('the plain driver through the library', () => {
  it('answers an Abecs command with ERR010 without calling the library: its parameters would not survive the text', async () => {
    const sim = await startVirtualPinpad({}, cleanup);
    let transport: BibcompTransport | undefined;
    const pinpad = new Pinpad({
      transport: () => (transport = new BibcompTransport({ calls, port: `127.0.0.1:${sim.port}` })),
      probeIntervalMs: 0,
    });
    cleanup.push(() => pinpad.close());
    await pinpad.connect();
    const e = await pinpad.gix().then(
      () => null,
      (x: unknown) => x,
    );
    expect(isPinpadError(e, 'PINPAD_STATUS')).toBe(true);
    expect((e as { context: { unknownCommand: boolean } }).context.unknownCommand).toBe(true);
    expect(sim.engine.state.received).not.toContain('GIX');
    expect(transport?.counters.starts).toBe(0);
  }, 30_000);
});
