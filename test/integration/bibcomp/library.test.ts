import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BibcompTransport, loadBibcomp, PPCOMP, type BibcompCalls } from '../../../drivers/bibcomp/index.js';
import {
  Pinpad,
  SecurePinpad,
  isPinpadError,
  terminalKeyFromPem,
  type PinpadNotification,
  type TerminalKey,
} from '../../../drivers/pinpad/index.js';
import { secureLayerOf } from '../../../src/sim/pinpad/secure/index.js';
import type { VirtualPinpad } from '../../../src/sim/pinpad/server.js';
import { buildBibcomp } from '../../helpers/bibcomp-build.js';
import { startVirtualPinpad } from '../../helpers/virtual-pinpad.js';
import { useTempDirs } from '../../helpers/temp-dir.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

let calls: BibcompCalls;
let terminalKey: TerminalKey;
beforeAll(() => {
  calls = loadBibcomp(buildBibcomp());
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicExponent: 0x10001 });
  terminalKey = terminalKeyFromPem(privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());
}, 60_000);

async function simUp(opts: ConstructorParameters<typeof VirtualPinpad>[0] = {}): Promise<VirtualPinpad> {
  const sim = await startVirtualPinpad(opts, cleanup);
  return sim;
}

const latin1 = (b: Uint8Array | undefined): string => Buffer.from(b ?? []).toString('latin1');

async function answer(): Promise<Uint8Array | undefined> {
  for (;;) {
    const r = await calls.pollGeneric();
    if (r.code === PPCOMP.PROCESSING) continue;
    expect(r.code).toBe(PPCOMP.OK);
    return r.data;
  }
}

describe('the test BibComp library (C, from the specification) against the virtual pinpad over TCP', () => {
  it('opens "host:port", answers PP_GetInfo with GIN and shows PP_Display, then closes', async () => {
    const sim = await simUp();
    expect(await calls.open(`127.0.0.1:${sim.port}`)).toBe(PPCOMP.OK);
    cleanup.push(async () => void (await calls.close('')));
    expect(await calls.open(`127.0.0.1:${sim.port}`)).toBe(PPCOMP.ALREADYOPEN);
    const info = await calls.getInfo('00');
    expect(info.code).toBe(PPCOMP.OK);
    expect(info.text).toContain('OMNIPOS VIRTUAL');
    expect(await calls.display('OLA MUNDO')).toBe(PPCOMP.OK);
    expect(sim.engine.state.display[0]).toBe('OLA MUNDO');
    expect(sim.engine.state.received).toEqual(['GIN', 'DSP']);
  });

  it('passes a current command whole through the generic command and returns the answer packet', async () => {
    const sim = await simUp();
    expect(await calls.open(`127.0.0.1:${sim.port}`)).toBe(PPCOMP.OK);
    cleanup.push(async () => void (await calls.close('')));
    // GIX asking PP_SERNUM (8001h) in SPE_IDLIST (§3.2.4): parameter PARID 0001h, PARLEN 0002h (binary, §3.1.3.1), then
    // the id. Its NUL bytes are why the bridge needs the length-explicit generic command (a C string stops at the first).
    expect(await calls.startGeneric(new Uint8Array(Buffer.from('GIX006\x00\x01\x00\x02\x80\x01', 'latin1')))).toBe(
      PPCOMP.OK,
    );
    const a = latin1(await answer());
    expect(a.slice(0, 6)).toBe('GIX000');
    expect(a).toContain('VPP0000000001');
  });

  it('PP_Abort sends CAN and returns once the pinpad answered EOT; a bad port string is PORTERR', async () => {
    const sim = await simUp({ typingMs: null });
    expect(await calls.open('127.0.0.1:1')).toBe(PPCOMP.PORTERR);
    expect(await calls.open(`127.0.0.1:${sim.port}`)).toBe(PPCOMP.OK);
    cleanup.push(async () => void (await calls.close('')));
    expect(await calls.abort()).toBe(PPCOMP.OK);
    expect(sim.engine.state.cans).toBeGreaterThanOrEqual(1);
  });
});

describe('SecurePinpad through the bridge (BibcompTransport): sealed packets pass through the library', () => {
  async function bridged(simOpts: ConstructorParameters<typeof VirtualPinpad>[0] = {}) {
    const sim = await simUp(simOpts);
    const transport = () => new BibcompTransport({ calls, port: `127.0.0.1:${sim.port}`, pollMs: 5 });
    const pinpad = new SecurePinpad({
      transport,
      terminalKey,
      probeIntervalMs: 0,
      reconnect: { initialMs: 20, maxMs: 200 },
    });
    cleanup.push(() => pinpad.close());
    await pinpad.connect();
    return { sim, pinpad };
  }

  it('opens the secure channel through the library and reads info by GIX, every command sealed', async () => {
    const { sim, pinpad } = await bridged();
    expect(pinpad.secure).toMatchObject({ recognition: 'abecs', secure: true });
    const info = await pinpad.info();
    expect(info).toMatchObject({ source: 'GIX', manufacturer: 'OMNIPOS VIRTUAL', serialNumber: 'VPP0000000001' });
    const trace = secureLayerOf(sim.engine.state).trace;
    expect(trace.filter((t) => t.id !== 'OPN').every((t) => t.sealed)).toBe(true);
    expect(trace.some((t) => t.id === 'GIX')).toBe(true);
  }, 30_000);

  it('gives the notifications of a blocking command as the ABECS driver does, and cancels it with PP_Abort', async () => {
    const { sim, pinpad } = await bridged({ typingMs: null });
    const notes: PinpadNotification[] = [];
    pinpad.on('notification', (n) => notes.push(n));
    sim.engine.type('987654321');
    expect(await pinpad.getData({ message: 9, maxDigits: 10, timeoutS: 60 })).toBe('987654321');
    expect(notes).toEqual([{ command: 'GCD', text: 'DIGITE O RG' }]);
    const ac = new AbortController();
    const p = pinpad.getData({ message: 1 }, { signal: ac.signal });
    await new Promise((r) => setTimeout(r, 100));
    ac.abort();
    await expect(p).rejects.toSatisfy((e) => isPinpadError(e, 'PINPAD_CANCELLED'));
    await pinpad.display('depois');
    expect(sim.engine.state.display[0]).toBe('depois');
  }, 30_000);
});

describe('the bridge in the clear, and a library that lacks the binary-safe generic command', () => {
  const tempDir = useTempDirs();
  it('a clear NTM becomes PPCOMP_NOTIFY in the library and the same notification from the driver', async () => {
    const sim = await simUp({ typingMs: null });
    const pinpad = new Pinpad({
      transport: () => new BibcompTransport({ calls, port: `127.0.0.1:${sim.port}`, pollMs: 5 }),
      probeIntervalMs: 0,
    });
    cleanup.push(() => pinpad.close());
    await pinpad.connect();
    const notes: PinpadNotification[] = [];
    pinpad.on('notification', (n) => notes.push(n));
    sim.engine.type('12345');
    expect(await pinpad.getData({ message: 9, maxDigits: 10, timeoutS: 60 })).toBe('12345');
    expect(notes).toEqual([{ command: 'GCD', text: 'DIGITE O RG' }]);
  }, 30_000);

  it('is refused at load, naming the missing function', () => {
    const dir = tempDir('omnipos-bibcomp-old-');
    const src = path.join(dir, 'old.c');
    // a library with only the NUL-terminated generic command
    writeFileSync(
      src,
      'int PP_Open(const char *p){(void)p;return 0;}\nint PP_Close(const char *m){(void)m;return 0;}\nint PP_Abort(void){return 0;}\nint PP_StartGenericCmd(const char *i){(void)i;return 0;}\nint PP_GenericCmd(char *o, char *n){(void)o;(void)n;return 1;}\n',
    );
    const so = path.join(dir, 'libold.so');
    execFileSync(process.env.CC ?? 'cc', ['-shared', '-fPIC', '-o', so, src]);
    expect(() => loadBibcomp(so)).toThrow(/PP_StartGenericCmdBin/);
  });
});
