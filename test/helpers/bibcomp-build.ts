import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const FIXTURE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/bibcomp');
const VECTOR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../vectors/bibcomp/ppcomp-h.json');
let built: string | undefined;

/** The functions of the public PPCOMP.H, as test/vectors/bibcomp/ppcomp-h.json keeps them. */
export interface PpcompHeader {
  readonly source: string;
  readonly types: Readonly<Record<string, string>>;
  readonly functions: readonly { name: string; group: string; declaration: string }[];
  readonly notExported: readonly { name: string; declaration: string; why: string }[];
}

export const PPCOMP_H = JSON.parse(readFileSync(VECTOR, 'utf8')) as PpcompHeader;

/** A C header declaring PPCOMP.H's functions from the stored list (its types as ppc_type.h gives them). */
export function ppcompHeaderText(h: PpcompHeader = PPCOMP_H): string {
  const types = Object.entries(h.types).map(([name, t]) =>
    t === '' || !t.includes('char') ? `#define ${name} ${t}` : `typedef ${t.replace(/\s*\*$/, '')} *${name};`,
  );
  return [...types, ...h.functions.map((f) => f.declaration), ''].join('\n');
}

/**
 * The test BibComp library (test/fixtures/bibcomp/*.c), compiled with the machine's C compiler into
 * a temporary directory once per test process: `cc -shared -fPIC`, with the header made from the
 * stored PPCOMP.H list forced in front (`-include`), so a function whose signature differs from the
 * header's does not build.
 */
export function buildBibcomp(): string {
  if (built && existsSync(built)) return built;
  const dir = mkdtempSync(path.join(tmpdir(), 'omnipos-bibcomp-'));
  const header = path.join(dir, 'ppcomp-public.h');
  writeFileSync(header, ppcompHeaderText());
  const out = path.join(dir, 'libppcomp.so');
  execFileSync(
    process.env.CC ?? 'cc',
    [
      '-O2',
      '-Wall',
      '-Werror',
      '-include',
      header,
      '-shared',
      '-fPIC',
      '-o',
      out,
      path.join(FIXTURE, 'ppcomp.c'),
      path.join(FIXTURE, 'link.c'),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  built = out;
  return out;
}

/**
 * The test library's faults: a file whose word ("error", "stuck", "block", "none") the library
 * reads at each call, named by BIBCOMP_FAULT_FILE in the environment of the process that loads it.
 * This process's environment is set at once; a daemon started after gets `env`.
 */
export function bibcompFaults(): {
  env: Record<string, string>;
  set(name: 'error' | 'stuck' | 'block' | 'none'): void;
} {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'omnipos-bibcomp-fault-')), 'fault');
  writeFileSync(file, 'none');
  process.env.BIBCOMP_FAULT_FILE = file;
  return { env: { BIBCOMP_FAULT_FILE: file }, set: (name) => writeFileSync(file, name) };
}
