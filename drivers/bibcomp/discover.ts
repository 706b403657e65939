import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Where a maker's or acquirer's BibComp library is usually installed: the system library folders
 * (with the Debian multiarch ones) and each `/opt/<vendor>/lib`. `*` stands for every folder there.
 */
export const LIBRARY_DIRS: readonly string[] = [
  '/usr/lib',
  '/usr/lib64',
  '/usr/local/lib',
  '/usr/lib/x86_64-linux-gnu',
  '/usr/lib/aarch64-linux-gnu',
  '/usr/lib/arm-linux-gnueabihf',
  '/opt/*/lib',
];

/** `lib…ppcomp….so` (the PPCOMP library of the "API Compartilhada para Pinpad") or `…bibcomp….so`, with or without a version. */
const NAME = /^(lib.*ppcomp.*|.*bibcomp.*)\.so(\.\d+)*$/i;

function expand(dir: string): string[] {
  const star = dir.indexOf('*');
  if (star < 0) return [dir];
  const parent = dir.slice(0, star);
  const rest = dir.slice(star + 1);
  try {
    return readdirSync(parent, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => path.join(parent, d.name) + rest);
  } catch {
    return [];
  }
}

/**
 * The shared libraries in `dirs` whose names say they are BibComp libraries, by file name only:
 * nothing is loaded (loading a vendor's library runs its code). Sorted, each path once.
 */
export function findBibcompLibraries(dirs: readonly string[] = LIBRARY_DIRS): string[] {
  const out = new Set<string>();
  for (const dir of dirs.flatMap(expand)) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const n of names) {
      if (!NAME.test(n)) continue;
      const p = path.join(dir, n);
      try {
        if (statSync(p).isFile()) out.add(p);
      } catch {
        // a dangling link: not a library
      }
    }
  }
  return [...out].sort();
}
