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
 * Return codes of the PPCOMP C API ("API Compartilhada para Pinpad"): 0 OK, 1 still processing,
 * 2 a notification to show; the rest are the specification's return codes (§3.1.1) and the
 * library's own (14-19, 30-34). The names below are the ones our test library uses.
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
  PORTERR: 30,
  COMMERR: 31,
  RSPERR: 33,
  COMMTOUT: 34,
} as const;

/** Largest PKTDATA (§2.2.1). */
export const MAX_PKTDATA = 2049;
/** A notification: 2 lines of 16 (§2.3.3) and a NUL. */
const NOTIFY_SIZE = 33;

/** The answer of one PP_GenericCmdBin poll. */
export interface GenericPoll {
  readonly code: number;
  /** The answer packet (PKTDATA, as the pinpad sent it: sealed answers stay sealed) when code is OK. */
  readonly data?: Uint8Array;
  /** The notification text when code is NOTIFY. */
  readonly text?: string;
}

/** The PPCOMP calls the bridge makes; each runs on koffi's worker thread, never on the event loop. */
export interface BibcompCalls {
  open(port: string): Promise<number>;
  close(idleMessage: string): Promise<number>;
  abort(): Promise<number>;
  startGeneric(data: Uint8Array): Promise<number>;
  pollGeneric(): Promise<GenericPoll>;
  getInfo(acquirerIndex: string): Promise<{ code: number; text: string }>;
  display(text: string): Promise<number>;
}

function asyncCall<T>(fn: KoffiFunction, ...args: unknown[]): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    fn.async(...args, (err: unknown, res: T) => (err ? reject(err instanceof Error ? err : new Error('koffi call failed')) : resolve(res)));
  });
}

const cstr = (b: Buffer): string => {
  const end = b.indexOf(0);
  return b.subarray(0, end < 0 ? b.length : end).toString('latin1');
};

/** Functions the bridge needs; a library without them is refused at load, by name. */
export const REQUIRED_FUNCTIONS = ['PP_Open', 'PP_Close', 'PP_Abort', 'PP_StartGenericCmdBin', 'PP_GenericCmdBin'] as const;

/**
 * Loads a BibComp library with koffi and declares its functions. Throws (with the missing name)
 * when the library cannot be loaded or lacks a function the bridge needs.
 */
export function loadBibcomp(path: string): BibcompCalls {
  const lib = koffi().load(path);
  const f = (decl: string): KoffiFunction => lib.func(decl) as KoffiFunction;
  const open = f('int PP_Open(const char *psCom)');
  const close = f('int PP_Close(const char *psIdleMsg)');
  const abort = f('int PP_Abort()');
  const start = f('int PP_StartGenericCmdBin(const uint8_t *psInput, int len)');
  const poll = f('int PP_GenericCmdBin(_Out_ uint8_t *psOutput, int cap, _Out_ int *outLen, _Out_ uint8_t *psMsgNotify)');
  let getInfo: KoffiFunction | undefined;
  let display: KoffiFunction | undefined;
  try {
    getInfo = f('int PP_GetInfo(const char *psInput, _Out_ uint8_t *psOutput)');
    display = f('int PP_Display(const char *psMsg)');
  } catch {
    // optional: the bridge runs every pinpad command through the generic command
  }
  return {
    open: (port) => asyncCall<number>(open, port),
    close: (msg) => asyncCall<number>(close, msg),
    abort: () => asyncCall<number>(abort),
    startGeneric: (data) => asyncCall<number>(start, Buffer.from(data), data.length),
    pollGeneric: async () => {
      const out = Buffer.alloc(MAX_PKTDATA);
      const len = [0];
      const notify = Buffer.alloc(NOTIFY_SIZE);
      const code = await asyncCall<number>(poll, out, out.length, len, notify);
      if (code === PPCOMP.OK) return { code, data: new Uint8Array(out.subarray(0, len[0] ?? 0)) };
      if (code === PPCOMP.NOTIFY) return { code, text: cstr(notify) };
      return { code };
    },
    getInfo: async (idx) => {
      if (!getInfo) return { code: PPCOMP.INVCALL, text: '' };
      const out = Buffer.alloc(4096);
      const code = await asyncCall<number>(getInfo, idx, out);
      return { code, text: cstr(out) };
    },
    display: (text) => (display ? asyncCall<number>(display, text) : Promise.resolve(PPCOMP.INVCALL)),
  };
}
