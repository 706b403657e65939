import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import koffi from 'koffi';

const SOURCE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/bibcomp/ppcomp.c');
const built = new Map<string, string>();

/**
 * The test BibComp library (test/fixtures/bibcomp/ppcomp.c), compiled with the machine's C compiler
 * into a temporary directory, once per test process: `cc -shared -fPIC`. `classic`: the variant
 * without the generic command (-DPPTEST_NO_GENERIC), a vendor library of the classic kind.
 */
export function buildBibcomp(variant: 'generic' | 'classic' = 'generic'): string {
  const done = built.get(variant);
  if (done && existsSync(done)) return done;
  const dir = mkdtempSync(path.join(tmpdir(), 'omnipos-bibcomp-'));
  const out = path.join(dir, variant === 'classic' ? 'libppcomp-classic.so' : 'libppcomp.so');
  const flags = variant === 'classic' ? ['-DPPTEST_NO_GENERIC'] : [];
  execFileSync(process.env.CC ?? 'cc', ['-O2', '-Wall', '-Werror', ...flags, '-shared', '-fPIC', '-o', out, SOURCE], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  built.set(variant, out);
  return out;
}

/** Steers the test library's faults (`PPTEST_SetFault`, the fixture's own export): error, stuck, block, none. */
export function setFault(library: string, name: 'error' | 'stuck' | 'block' | 'none'): void {
  const set = koffi.load(library).func('void PPTEST_SetFault(const char *name)') as (n: string) => void;
  set(name);
}
