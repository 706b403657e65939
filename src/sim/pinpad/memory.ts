import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { isValidCounter } from '../../crypto/index.js';

/** What a real pinpad keeps across a power cycle that the virtual one simulates: its DUKPT transaction counters. */
interface PinpadMemoryContents {
  /** The last counter used under each DUKPT key (0: none used yet). ANSI X9.24-1: a counter never repeats. */
  dukpt: { pin: number; data: number };
}

const FORMAT = 1;

function fresh(): PinpadMemoryContents {
  return { dukpt: { pin: 0, data: 0 } };
}

/** Reads a memory file's text; throws naming the file and the field for anything but a well-formed one. */
function parse(path: string, text: string): PinpadMemoryContents {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new Error(`pinpad memory ${path}: not JSON`);
  }
  const o = v as { format?: unknown; dukpt?: { pin?: unknown; data?: unknown } } | null;
  if (typeof o !== 'object' || o === null || o.format !== FORMAT)
    throw new Error(`pinpad memory ${path}: expected {"format":${FORMAT},…}`);
  const d = o.dukpt;
  for (const kind of ['pin', 'data'] as const) {
    const n = d?.[kind];
    if (typeof n !== 'number' || !isValidCounter(n))
      throw new Error(`pinpad memory ${path}: dukpt.${kind} is not a DUKPT counter (21 bits, at most ten set)`);
  }
  return { dukpt: { pin: d!.pin as number, data: d!.data as number } };
}

/**
 * The virtual pinpad's non-volatile memory. A real pinpad keeps its DUKPT counters in its own
 * memory across power cycles (ANSI X9.24-1: a transaction counter is never used twice under one
 * initial key), so a simulator stopped and started again must go on from where it stopped. With a
 * path, the counters live in that file: each advance is written (temporary file, fsync, rename)
 * before the KSN leaves the pinpad, so a SIGKILL right after an answer never gives that KSN again.
 * A file that cannot be read stops the start (a pinpad with a damaged memory does not work); a
 * missing file is a new pinpad. Without a path the memory lasts as long as the process (the tests'
 * default).
 */
export class PinpadMemory {
  private readonly contents: PinpadMemoryContents;

  constructor(readonly path?: string) {
    this.contents = path === undefined ? fresh() : PinpadMemory.read(path);
  }

  private static read(path: string): PinpadMemoryContents {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return fresh();
      throw new Error(`pinpad memory ${path}: ${(e as Error).message}`);
    }
    return parse(path, text);
  }

  /** The last counter used under `kind`'s key. */
  counter(kind: 'pin' | 'data'): number {
    return this.contents.dukpt[kind];
  }

  /** Records `counter` as used under `kind`'s key, durably when the memory has a file. */
  use(kind: 'pin' | 'data', counter: number): void {
    this.contents.dukpt[kind] = counter;
    if (this.path !== undefined) this.write(this.path);
  }

  private write(path: string): void {
    const tmp = `${path}.tmp`;
    const fd = openSync(tmp, 'w', 0o600);
    try {
      writeSync(fd, JSON.stringify({ format: FORMAT, dukpt: this.contents.dukpt }));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  }
}
