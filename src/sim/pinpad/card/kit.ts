import { Refusal, type SimCommand, type SimContext } from '../engine.js';
import { writeAnswer } from '../wire/command.js';
import type { FieldValue } from '../wire/fields.js';
import {
  faultStatus,
  isParamFault,
  packBlocks,
  ParamFaultError,
  readParams as readWire,
  writeDatum,
  type ParamSet,
} from '../wire/params.js';

export type { FieldValue };

/** Return codes the card handlers answer (§3.1.1). */
export const ST = {
  OK: 0,
  INVCALL: 10,
  INVPARM: 11,
  TIMEOUT: 12,
  CANCEL: 13,
  MANDAT: 19,
  TABVERDIF: 20,
  TABERR: 21,
  INTERR: 40,
  ERRKEY: 42,
  ERRCARD: 61,
  CARDINVALIDAT: 67,
  CARDPROBLEMS: 68,
  CARDAPPNAV: 70,
  ERRFALLBACK: 76,
  CARDBLOCKED: 79,
  CTLSAPPNAV: 84,
  CTLSEXTCVM: 86,
  MFNFOUND: 100,
  MFERR: 102,
} as const;

/**
 * The parameters of an Abecs command by name, read strictly (src/sim/pinpad/wire/params.ts): a
 * broken structure or a parameter outside its format or length refuses the command with
 * ST_INVPARM, a missing mandatory one with ST_MANDAT (§3.1.3.1, §6.2.2).
 */
export function readParams(cmd: SimCommand): ParamSet {
  const p = readWire(cmd.id, cmd.blocks);
  if (isParamFault(p))
    throw new Refusal(
      faultStatus(p),
      `${cmd.id}: ${p.kind} ${'name' in p ? p.name : `block ${p.block} offset ${p.offset}`}`,
    );
  const refuse = <T>(f: () => T): T => {
    try {
      return f();
    } catch (e) {
      if (e instanceof ParamFaultError) throw new Refusal(faultStatus(e.fault), `${cmd.id}: ${e.message}`);
      throw e;
    }
  };
  return { get: (n) => refuse(() => p.get(n)), all: (n) => refuse(() => p.all(n)), has: (n) => p.has(n) };
}

/** A success answer with PP_ data by name (undefined values left out). */
export function answer(id: string, data: readonly (readonly [string, FieldValue | undefined])[]): Uint8Array {
  const ps = data.filter(([, v]) => v !== undefined).map(([n, v]) => writeDatum(n, v!));
  return writeAnswer(id, 0, packBlocks(ps));
}

export const fail = (id: string, status: number): Uint8Array => writeAnswer(id, status);

/** Waits `ms`, or until the command is aborted (CAN or a new command): true when aborted. */
export function pause(ms: number, ctx: SimContext): Promise<boolean> {
  return new Promise((resolve) => {
    if (ctx.signal.aborted) return resolve(true);
    const t = setTimeout(() => resolve(false), ms);
    ctx.signal.addEventListener('abort', () => (clearTimeout(t), resolve(true)), { once: true });
  });
}

/** Waits for an abort or SPE_TIMEOUT (seconds; none = forever): 'aborted' or 'timeout'. */
export function waitNothing(ctx: SimContext, timeoutS: number | undefined): Promise<'aborted' | 'timeout'> {
  return new Promise((resolve) => {
    if (ctx.signal.aborted) return resolve('aborted');
    const t =
      timeoutS !== undefined && timeoutS > 0 ? setTimeout(() => resolve('timeout'), timeoutS * 1000) : undefined;
    t?.unref();
    ctx.signal.addEventListener('abort', () => (clearTimeout(t), resolve('aborted')), { once: true });
  });
}

/** A number from an N/X parameter. */
export function num(v: FieldValue | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = typeof v === 'number' ? v : Number(v instanceof Uint8Array ? Buffer.from(v).toString('latin1') : v);
  return Number.isFinite(n) ? n : undefined;
}

export function str(v: FieldValue | undefined): string | undefined {
  if (v === undefined) return undefined;
  return v instanceof Uint8Array ? Buffer.from(v).toString('latin1') : String(v);
}

export function bin(v: FieldValue | undefined): Uint8Array | undefined {
  if (v === undefined) return undefined;
  return v instanceof Uint8Array ? v : Buffer.from(String(v), 'latin1');
}

/** True when the profile has a key in `slot` of `kind` ("1" in the 100-character map). */
export function hasKey(ctx: SimContext, kind: 'dukptPin' | 'dukptData', slot: number): boolean {
  return ctx.profile.keys[kind][slot] === '1';
}
