// What the soak reads of its own process (Linux, glibc): /proc/self/smaps(_rollup), mallinfo2.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import koffi from 'koffi';

export const mib = (n: number): number => Math.round((n / 1048576) * 10) / 10;

/** glibc's malloc counters (all arenas): bytes in use and bytes free inside the arenas (fragmentation); NaN off glibc. */
export const mallinfo2 = ((): (() => { inUseMiB: number; freeInArenasMiB: number }) => {
  try {
    const libc = koffi.load('libc.so.6');
    const info = koffi.struct('mallinfo2_t', {
      arena: 'size_t',
      ordblks: 'size_t',
      smblks: 'size_t',
      hblks: 'size_t',
      hblkhd: 'size_t',
      usmblks: 'size_t',
      fsmblks: 'size_t',
      uordblks: 'size_t',
      fordblks: 'size_t',
      keepcost: 'size_t',
    });
    const f = libc.func('mallinfo2', info, []) as () => {
      uordblks: number | bigint;
      fordblks: number | bigint;
      hblkhd: number | bigint;
    };
    return () => {
      const m = f();
      return { inUseMiB: mib(Number(m.uordblks) + Number(m.hblkhd)), freeInArenasMiB: mib(Number(m.fordblks)) };
    };
  } catch {
    return () => ({ inUseMiB: NaN, freeInArenasMiB: NaN });
  }
})();

/** A field of /proc/self/smaps_rollup, in MiB (Linux only; NaN elsewhere). */
export function rollup(field: string): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync('/proc/self/smaps_rollup', 'utf8'));
    return m ? mib(Number(m[1]) * 1024) : NaN;
  } catch {
    return NaN;
  }
}

/**
 * Where the anonymous memory is, from /proc/self/smaps: the main malloc arena (`[heap]`, the
 * brk heap: SQLite's page caches, the main thread's buffers) and glibc's per-thread arenas (anonymous
 * mappings starting on a 64 MiB boundary: libuv's pool, V8's helper threads), in MiB of RSS.
 */
export function arenas(): { brkHeapMiB: number; threadArenasMiB: number; threadArenas: number } {
  let brk = 0;
  let threads = 0;
  let count = 0;
  try {
    let current: { start: bigint; name: string } | undefined;
    for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
      const head = /^([0-9a-f]+)-[0-9a-f]+ \S+ \S+ \S+ \d+\s*(.*)$/.exec(line);
      if (head) {
        current = { start: BigInt(`0x${head[1]}`), name: head[2] ?? '' };
        continue;
      }
      const rss = /^Rss:\s+(\d+) kB/.exec(line);
      if (!rss || !current) continue;
      const kb = Number(rss[1]);
      if (current.name === '[heap]') brk += kb;
      else if (current.name === '' && current.start % (64n << 20n) === 0n && kb > 0) {
        threads += kb;
        count++;
      }
    }
  } catch {
    return { brkHeapMiB: NaN, threadArenasMiB: NaN, threadArenas: NaN };
  }
  return { brkHeapMiB: mib(brk * 1024), threadArenasMiB: mib(threads * 1024), threadArenas: count };
}

/** A file's size in MiB, 0 when it is not there. */
export function fileMiB(file: string): number {
  try {
    return mib(statSync(file).size);
  } catch {
    return 0;
  }
}

/** CPU time of this process's main thread and of all its threads, ms (Linux: /proc/self/task/TID/stat; NaN elsewhere). */
export function threadCpuMs(): { mainMs: number; allMs: number } {
  try {
    const tick = 10; // USER_HZ is 100 on Linux
    let main = 0;
    let all = 0;
    for (const tid of readdirSync('/proc/self/task')) {
      let stat: string;
      try {
        stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      } catch {
        continue; // a thread that ended
      }
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ms = (Number(f[11]) + Number(f[12])) * tick;
      all += ms;
      if (Number(tid) === process.pid) main = ms;
    }
    return { mainMs: main, allMs: all };
  } catch {
    return { mainMs: NaN, allMs: NaN };
  }
}
