import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import koffi from 'koffi';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cText, loadBibcomp, PPCOMP, type BibcompCalls } from '../../../drivers/bibcomp/index.js';
import type { VirtualPinpad } from '../../../src/sim/pinpad/server.js';
import { buildBibcomp, PPCOMP_H } from '../../helpers/bibcomp-build.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { startVirtualPinpad } from '../../helpers/virtual-pinpad.js';

/**
 * The test BibComp library (test/fixtures/bibcomp, C) is a vendor library as the public PPCOMP.H
 * declares one: it exports exactly the header's functions (the list and its source:
 * test/vectors/bibcomp/ppcomp-h.json), each compiled against the header's own declaration.
 */
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

const tempDir = useTempDirs();
let library: string;
let calls: BibcompCalls;
beforeAll(() => {
  library = buildBibcomp();
  calls = loadBibcomp(library);
}, 60_000);

/** The functions the shared object defines (`nm -D --defined-only`, text symbols). */
function exported(so: string): string[] {
  return execFileSync('nm', ['-D', '--defined-only', so], { encoding: 'utf8' })
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f.length === 3 && /^[TW]$/.test(f[1]!))
    .map((f) => f[2]!)
    .sort();
}

async function opened(opts: ConstructorParameters<typeof VirtualPinpad>[0] = {}): Promise<VirtualPinpad> {
  const sim = await startVirtualPinpad(opts, cleanup);
  expect(await calls.open(`127.0.0.1:${sim.port}`)).toBe(PPCOMP.OK);
  cleanup.push(async () => void (await calls.close('')));
  return sim;
}

/** One command through PP_StartGenericCmd/PP_GenericCmd, to its answer. */
async function generic(command: Uint8Array): Promise<{ code: number; data?: Uint8Array }> {
  const start = await calls.startGeneric(command);
  if (start !== PPCOMP.OK) return { code: start };
  for (;;) {
    const r = await calls.pollGeneric();
    if (r.code !== PPCOMP.PROCESSING && r.code !== PPCOMP.NOTIFY) return r;
  }
}
const text = (b: Uint8Array | undefined): string => Buffer.from(b ?? []).toString('latin1');
const bytes = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s, 'latin1'));

describe('the test BibComp library exports exactly the public PPCOMP.H', () => {
  it("defines the header's functions and no other (PP_StartGenericCmdBin/PP_GenericCmdBin, PPTEST_SetFault: gone)", () => {
    const names = PPCOMP_H.functions.map((f) => f.name).sort();
    expect(names).toHaveLength(39);
    expect(exported(library)).toEqual(names);
    for (const f of PPCOMP_H.notExported) expect(exported(library), f.why).not.toContain(f.name);
  });

  it("builds only against the header's declarations: a function whose signature differs does not compile", () => {
    const dir = tempDir('omnipos-bibcomp-sig-');
    const header = path.join(dir, 'h.h');
    // the stored declarations, with PP_GetKey as PPCOMP.H has it; a definition taking an argument conflicts
    writeFileSync(header, 'typedef const char *INPUT;\nint PP_GetKey(void);\n');
    const src = path.join(dir, 'bad.c');
    writeFileSync(src, 'int PP_GetKey(int x) { return x; }\n');
    expect(() =>
      execFileSync(process.env.CC ?? 'cc', ['-Werror', '-include', header, '-c', '-o', `${src}.o`, src], {
        stdio: 'pipe',
      }),
    ).toThrow(/conflicting types/);
  });
});

describe('the library against the virtual pinpad over TCP', () => {
  it('opens "host:port" once, answers GIN and DSP through the generic command as NUL-terminated text', async () => {
    const sim = await opened();
    expect(await calls.open(`127.0.0.1:${sim.port}`)).toBe(PPCOMP.ALREADYOPEN);
    const gin = await generic(bytes('GIN00200'));
    expect(gin.code).toBe(PPCOMP.OK);
    expect(text(gin.data)).toMatch(/^GIN000100OMNIPOS VIRTUAL/);
    expect(text((await generic(bytes(`DSP032${'OLA MUNDO'.padEnd(32)}`))).data)).toBe('DSP000');
    expect(sim.engine.state.display[0]).toBe('OLA MUNDO');
  });

  it('through PPCOMP.H itself: PP_GetInfo and PP_Display, a Latin-1 "RETIRE O CARTÃO" reaching the pinpad as 15 characters', async () => {
    const sim = await opened();
    const lib = koffi.load(library);
    // on koffi's worker thread: the virtual pinpad answers on this process's event loop
    const call = (decl: string, ...args: unknown[]): Promise<number> =>
      new Promise((resolve, reject) => {
        const fn = lib.func(decl) as { async: (...a: unknown[]) => void };
        fn.async(...args, (err: unknown, r: number) =>
          err ? reject(err instanceof Error ? err : new Error('koffi call failed')) : resolve(r),
        );
      });
    const out = Buffer.alloc(4096);
    expect(await call('int PP_GetInfo(const char *psInput, _Out_ char *psOutput)', cText('00'), out)).toBe(PPCOMP.OK);
    expect(out.toString('latin1')).toMatch(/^OMNIPOS VIRTUAL/);
    expect(cText('RETIRE O CARTÃO')).toHaveLength(16); // 15 bytes and the NUL
    expect(await call('int PP_Display(const char *psMsg)', cText('RETIRE O CARTÃO'))).toBe(PPCOMP.OK);
    expect(sim.engine.state.display[0]).toBe('RETIRE O CARTÃO');
  });

  it('what NUL-terminated text cannot carry: an Abecs parameter (PARID 00xxh) cuts the command, an answer datum (RSP_DATLEN 00xxh) the answer', async () => {
    await opened();
    // GIX asking PP_SERNUM: "GIX006" 00 01 00 02 80 01 (§3.2.4) — the text ends at the first 00h
    const gix = await generic(Uint8Array.from([...bytes('GIX006'), 0x00, 0x01, 0x00, 0x02, 0x80, 0x01]));
    expect(text(gix.data)).toMatch(/^GIX0(11|19)$/); // the pinpad got "GIX006" and nothing after
    // GIX with no parameter is text, but its answer is not: 80 01 00 0D… is cut at the 00h of RSP_DATLEN
    const all = await generic(bytes('GIX000'));
    expect(all.code).toBe(PPCOMP.OK);
    expect(text(all.data)).toMatch(/^GIX000\d{3}/);
    expect([...(all.data ?? [])].slice(9)).toEqual([0x80, 0x01]);
  });

  it('PP_Abort sends CAN and returns once the pinpad answered EOT; a bad port string is PORTERR', async () => {
    await opened({ typingMs: null });
    // GPN (§3.3.11) waits for a PIN nobody types: method 3, key 01, no WK, a 16-digit PAN, 4 to 12 digits
    const gpn = `3010${'0'.repeat(31)}16${'5'.repeat(16).padEnd(19)}10412${'SENHA'.padEnd(32)}`;
    expect(await calls.startGeneric(bytes(`GPN${String(gpn.length).padStart(3, '0')}${gpn}`))).toBe(PPCOMP.OK);
    for (let i = 0; i < 3; i++) expect([PPCOMP.PROCESSING, PPCOMP.NOTIFY]).toContain((await calls.pollGeneric()).code);
    expect(await calls.abort()).toBe(PPCOMP.OK);
    await calls.close('');
    expect(await calls.open('127.0.0.1:1')).toBe(PPCOMP.PORTERR);
  });

  it('a library without the PPCOMP.H functions the bridge calls is refused at load, by name', () => {
    const dir = tempDir('omnipos-bibcomp-min-');
    const src = path.join(dir, 'min.c');
    writeFileSync(
      src,
      'int PP_Open(const char *p){(void)p;return 0;}\nint PP_Close(const char *m){(void)m;return 0;}\nint PP_Abort(void){return 0;}\n',
    );
    const so = path.join(dir, 'libmin.so');
    execFileSync(process.env.CC ?? 'cc', ['-shared', '-fPIC', '-o', so, src]);
    expect(() => loadBibcomp(so)).toThrow(/PP_StartGenericCmd is not exported/);
    expect(() => loadBibcomp(path.join(dir, 'nothere.so'))).toThrow(/nothere\.so: the library does not load/);
  });
});
