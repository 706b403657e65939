import { createRequire } from 'node:module';
import type koffiModule from 'koffi';

/**
 * koffi, loaded on first use: its native binary is loaded only by a daemon whose pinpad is behind a
 * BibComp library, never by one driving a serial or TCP pinpad (nor by `omnipos --help`).
 */
let koffiLoaded: typeof koffiModule | undefined;
function koffi(): typeof koffiModule {
  koffiLoaded ??= createRequire(import.meta.url)('koffi') as typeof koffiModule;
  return koffiLoaded;
}

/** A function declared with koffi: callable, and `.async(...args, callback)` on its worker thread. */
interface KoffiFunction {
  async: (...args: unknown[]) => void;
}

/**
 * Return codes of PPCOMP.H ("API Compartilhada para Pinpad"): 0 OK, 1 still processing, 2 a
 * notification to show; 10-13 and 19-22, 40-76 are the specification's statuses (§3.1.1);
 * 14-18 and 30-34 the library's own.
 */
export const PPCOMP = {
  OK: 0,
  PROCESSING: 1,
  NOTIFY: 2,
  INVCALL: 10,
  INVPARM: 11,
  TIMEOUT: 12,
  CANCEL: 13,
  ALREADYOPEN: 14,
  NOTOPEN: 15,
  EXECERR: 16,
  INVMODEL: 17,
  NOFUNC: 18,
  ERRMANDAT: 19,
  TABEXP: 20,
  PORTERR: 30,
  COMMERR: 31,
  UNKNOWNSTAT: 32,
  RSPERR: 33,
  COMMTOUT: 34,
} as const;

/** A notification: 2 lines of 16 (§2.3.3) and a NUL. */
const NOTIFY_SIZE = 33;
/** psOutput of PP_GenericCmd: the longest answer (2049) and its NUL, with room to spare (PPCOMP.H gives no size). */
const OUTPUT_SIZE = 4096;

/** The PPCOMP.H declarations the bridge uses (INPUT = const char *, OUTPUT = char *, ppc_type.h). */
export const BRIDGE_FUNCTIONS = {
  PP_Open: 'int PP_Open(const char *psCom)',
  PP_Close: 'int PP_Close(const char *psIdleMsg)',
  PP_Abort: 'int PP_Abort()',
  PP_StartGenericCmd: 'int PP_StartGenericCmd(const char *psInput)',
  PP_GenericCmd: 'int PP_GenericCmd(_Out_ char *psOutput, _Out_ char *psMsgNotify)',
} as const;

/** The answer of one PP_GenericCmd poll. */
export interface GenericPoll {
  readonly code: number;
  /** The answer's PKTDATA up to its NUL, when code is OK. */
  readonly data?: Uint8Array;
  /** The notification text (Latin-1) when code is NOTIFY. */
  readonly text?: string;
}

/** The PPCOMP calls the bridge makes; each runs on koffi's worker thread, never on the event loop. */
export interface BibcompCalls {
  open(port: string): Promise<number>;
  close(idleMessage: string): Promise<number>;
  abort(): Promise<number>;
  /** PP_StartGenericCmd with the bytes as C text (they must hold no 00h: the caller checks). */
  startGeneric(data: Uint8Array): Promise<number>;
  pollGeneric(): Promise<GenericPoll>;
}

function asyncCall<T>(fn: KoffiFunction, ...args: unknown[]): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    fn.async(...args, (err: unknown, res: T) =>
      err ? reject(err instanceof Error ? err : new Error('koffi call failed')) : resolve(res),
    );
  });
}

/**
 * A string as C text: its ISO 8859-1 bytes and a NUL (ABECS messages are Latin-1, §7.3.2), never
 * the UTF-8 koffi makes of a JS string — "RETIRE O CARTÃO" is 15 bytes, not 16. A character outside
 * Latin-1 or a NUL cannot be carried and throws.
 */
export function cText(s: string): Buffer {
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c === 0 || c > 0xff) throw new RangeError(`not Latin-1 text: U+${c.toString(16).padStart(4, '0')}`);
  }
  return Buffer.from(`${s}\0`, 'latin1');
}

/** Bytes as C text: the bytes and a NUL. */
const cBytes = (b: Uint8Array): Buffer => Buffer.concat([b, Buffer.of(0)]);

/** The bytes of a C output buffer up to its NUL. */
const upToNul = (b: Buffer): Buffer => {
  const end = b.indexOf(0);
  return b.subarray(0, end < 0 ? b.length : end);
};

/**
 * Loads a BibComp library with koffi and declares the PPCOMP.H functions the bridge uses. Throws,
 * naming the path and the function, when the library does not load or lacks one of them.
 */
export function loadBibcomp(path: string): BibcompCalls {
  let lib: ReturnType<typeof koffiModule.load>;
  try {
    lib = koffi().load(path);
  } catch (e) {
    throw new Error(`${path}: the library does not load (${(e as Error).message.split('\n')[0]})`);
  }
  const f = {} as Record<keyof typeof BRIDGE_FUNCTIONS, KoffiFunction>;
  for (const [name, decl] of Object.entries(BRIDGE_FUNCTIONS) as [keyof typeof BRIDGE_FUNCTIONS, string][]) {
    try {
      f[name] = lib.func(decl) as KoffiFunction;
    } catch {
      throw new Error(`${path}: ${name} is not exported (PPCOMP.H: ${decl})`);
    }
  }
  return {
    open: (port) => asyncCall<number>(f.PP_Open, cText(port)),
    close: (msg) => asyncCall<number>(f.PP_Close, cText(msg)),
    abort: () => asyncCall<number>(f.PP_Abort),
    startGeneric: (data) => asyncCall<number>(f.PP_StartGenericCmd, cBytes(data)),
    pollGeneric: async () => {
      const out = Buffer.alloc(OUTPUT_SIZE);
      const notify = Buffer.alloc(NOTIFY_SIZE);
      const code = await asyncCall<number>(f.PP_GenericCmd, out, notify);
      if (code === PPCOMP.OK) return { code, data: new Uint8Array(upToNul(out)) };
      if (code === PPCOMP.NOTIFY) return { code, text: upToNul(notify).toString('latin1') };
      return { code };
    },
  };
}
