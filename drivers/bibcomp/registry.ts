import { loadBibcomp, type BibcompCalls } from './library.js';

interface Loaded {
  calls: BibcompCalls;
  /** Set once a call of this library never returned (see BibcompTransport). */
  wedged: { value: boolean; call?: string };
}

const loaded = new Map<string, Loaded>();

/** One load per library path per process: a shared library keeps one state (one open port). */
export function bibcompLibrary(path: string): Loaded {
  let l = loaded.get(path);
  if (!l) {
    l = { calls: loadBibcomp(path), wedged: { value: false } };
    loaded.set(path, l);
  }
  return l;
}
