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

/** Largest PKTDATA (§2.2.1). */
export const MAX_PKTDATA = 2049;
/** A notification: 2 lines of 16 (§2.3.3) and a NUL. */
const NOTIFY_SIZE = 33;
/** A classic output string (the longest classic answer is under 1024 bytes, §2.2.1) with room to spare. */
const OUTPUT_SIZE = 4096;

/** The answer of one PP_GenericCmdBin poll. */
export interface GenericPoll {
  readonly code: number;
  /** The answer packet (PKTDATA, as the pinpad sent it: sealed answers stay sealed) when code is OK. */
  readonly data?: Uint8Array;
  /** The notification text when code is NOTIFY. */
  readonly text?: string;
}

/** What one classic PPCOMP call gave: its return code, the output string and a notification (when it has them). */
export interface ClassicAnswer {
  readonly code: number;
  readonly output?: string;
  readonly notify?: string;
}

/**
 * The classic functions of PPCOMP.H (the "API Compartilhada para Pinpad" header the public bindings
 * carry): inputs are NUL-terminated strings in the classic commands' layouts; `out` marks a
 * psOutput buffer, `notify` a psMsgNotify (2 lines of 16 and a NUL).
 */
export const CLASSIC_FUNCTIONS = {
  PP_StartGetCard: { decl: 'int PP_StartGetCard(const char *psInput)' },
  PP_GetCard: { decl: 'int PP_GetCard(_Out_ uint8_t *psOutput, _Out_ uint8_t *psMsgNotify)', out: true, notify: true },
  PP_ResumeGetCard: { decl: 'int PP_ResumeGetCard()' },
  PP_StartGoOnChip: { decl: 'int PP_StartGoOnChip(const char *psInput, const char *psTags, const char *psTagsOpt)' },
  PP_GoOnChip: {
    decl: 'int PP_GoOnChip(_Out_ uint8_t *psOutput, _Out_ uint8_t *psMsgNotify)',
    out: true,
    notify: true,
  },
  PP_FinishChip: {
    decl: 'int PP_FinishChip(const char *psInput, const char *psTags, _Out_ uint8_t *psOutput)',
    out: true,
  },
  PP_StartGetPIN: { decl: 'int PP_StartGetPIN(const char *psInput)' },
  PP_GetPIN: { decl: 'int PP_GetPIN(_Out_ uint8_t *psOutput, _Out_ uint8_t *psMsgNotify)', out: true, notify: true },
  PP_StartRemoveCard: { decl: 'int PP_StartRemoveCard(const char *psMsg)' },
  PP_RemoveCard: { decl: 'int PP_RemoveCard(_Out_ uint8_t *psMsgNotify)', notify: true },
  PP_GetTimeStamp: { decl: 'int PP_GetTimeStamp(const char *psInput, _Out_ uint8_t *psOutput)', out: true },
  PP_TableLoadInit: { decl: 'int PP_TableLoadInit(const char *psInput)' },
  PP_TableLoadRec: { decl: 'int PP_TableLoadRec(const char *psInput)' },
  PP_TableLoadEnd: { decl: 'int PP_TableLoadEnd()' },
} as const satisfies Record<string, { decl: string; out?: boolean; notify?: boolean }>;

export type ClassicFunction = keyof typeof CLASSIC_FUNCTIONS;

/** The PPCOMP calls the bridge makes; each runs on koffi's worker thread, never on the event loop. */
export interface BibcompCalls {
  /** The library exports the binary-safe generic command (PP_StartGenericCmdBin/PP_GenericCmdBin). */
  readonly generic: boolean;
  /** Whether the library exports a classic function. */
  has(fn: ClassicFunction): boolean;
  /** Calls a classic function with its string inputs (see CLASSIC_FUNCTIONS). */
  classic(fn: ClassicFunction, ...inputs: string[]): Promise<ClassicAnswer>;
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
    fn.async(...args, (err: unknown, res: T) =>
      err ? reject(err instanceof Error ? err : new Error('koffi call failed')) : resolve(res),
    );
  });
}

const cstr = (b: Buffer): string => {
  const end = b.indexOf(0);
  return b.subarray(0, end < 0 ? b.length : end).toString('latin1');
};

/** Functions the bridge needs; a library without them is refused at load, by name. */
export const REQUIRED_FUNCTIONS = ['PP_Open', 'PP_Close', 'PP_Abort'] as const;

/**
 * Loads a BibComp library with koffi and declares its functions. Throws (with the missing name)
 * when the library cannot be loaded or lacks a function the bridge needs: PP_Open, PP_Close,
 * PP_Abort, and either the binary-safe generic command or the classic card functions
 * (PP_StartGetCard/PP_GetCard at least).
 */
export function loadBibcomp(path: string): BibcompCalls {
  const lib = koffi().load(path);
  const f = (decl: string): KoffiFunction => lib.func(decl) as KoffiFunction;
  const open = f('int PP_Open(const char *psCom)');
  const close = f('int PP_Close(const char *psIdleMsg)');
  const abort = f('int PP_Abort()');
  const optional = (decl: string): KoffiFunction | undefined => {
    try {
      return f(decl);
    } catch {
      return undefined;
    }
  };
  const start = optional('int PP_StartGenericCmdBin(const uint8_t *psInput, int len)');
  const poll = optional(
    'int PP_GenericCmdBin(_Out_ uint8_t *psOutput, int cap, _Out_ int *outLen, _Out_ uint8_t *psMsgNotify)',
  );
  const classicFns = new Map<ClassicFunction, KoffiFunction>();
  for (const [name, d] of Object.entries(CLASSIC_FUNCTIONS) as [ClassicFunction, { decl: string }][]) {
    const fn = optional(d.decl);
    if (fn) classicFns.set(name, fn);
  }
  const generic = start !== undefined && poll !== undefined;
  if (!generic && !(classicFns.has('PP_StartGetCard') && classicFns.has('PP_GetCard'))) {
    throw new Error(
      `${path}: neither PP_StartGenericCmdBin/PP_GenericCmdBin nor PP_StartGetCard/PP_GetCard is exported`,
    );
  }
  let getInfo: KoffiFunction | undefined;
  let display: KoffiFunction | undefined;
  try {
    getInfo = f('int PP_GetInfo(const char *psInput, _Out_ uint8_t *psOutput)');
    display = f('int PP_Display(const char *psMsg)');
  } catch {
    // optional: the bridge runs every pinpad command through the generic command
  }
  return {
    generic,
    has: (fn) => classicFns.has(fn),
    classic: async (fn, ...inputs) => {
      const c = classicFns.get(fn);
      if (!c) return { code: PPCOMP.NOFUNC };
      const spec = CLASSIC_FUNCTIONS[fn] as { decl: string; out?: boolean; notify?: boolean };
      const out = spec.out ? Buffer.alloc(OUTPUT_SIZE) : undefined;
      const notify = spec.notify ? Buffer.alloc(NOTIFY_SIZE) : undefined;
      const code = await asyncCall<number>(c, ...inputs, ...(out ? [out] : []), ...(notify ? [notify] : []));
      return {
        code,
        ...(out && code === PPCOMP.OK ? { output: cstr(out) } : {}),
        ...(notify && code === PPCOMP.NOTIFY ? { notify: cstr(notify) } : {}),
      };
    },
    open: (port) => asyncCall<number>(open, port),
    close: (msg) => asyncCall<number>(close, msg),
    abort: () => asyncCall<number>(abort),
    startGeneric: (data) =>
      start ? asyncCall<number>(start, Buffer.from(data), data.length) : Promise.resolve(PPCOMP.NOFUNC),
    pollGeneric: async () => {
      if (!poll) return { code: PPCOMP.NOFUNC };
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
