import { SANDBOX_KEYS } from '../../../tables/sandbox-keys.js';
import type { TimingName } from './timing.js';

/**
 * What the virtual pinpad says about itself. The default is a current (ABECS 2.20) pinpad with a
 * DUKPT:TDES:PIN key in slot 01 and a DUKPT:TDES:DAT key in slot 02; `classicOnly` makes it a
 * pinpad that knows only the classic commands (it answers GIX with ERR010, §2.3.4).
 */
export interface VirtualPinpadProfile {
  manufacturer: string;
  /** "name;memory" as GIN_MODEL/PP_MODEL carry it. */
  model: string;
  serialNumber: string;
  partNumber: string;
  /** Basic software version (GIN_SOVER / PP_SOVER). */
  firmware: string;
  specVersion: string;
  /** "VVV.VV AAMMDD". */
  managerVersion: string;
  appVersion: string;
  kernelVersion: string;
  contactless: boolean;
  /** Knows only the classic command set: GIX and the other Abecs commands answer ERR010. */
  classicOnly: boolean;
  /** Key maps of 100 characters per kind ("0" absent, "1" present, "2" unsupported), slot 00 first. */
  keys: { mkPin: string; mkData: string; dukptPin: string; dukptData: string };
  /** KSN (20 hex digits) per loaded DUKPT:TDES:PIN slot. */
  dukptPinKsn: Record<string, string>;
  /** Text display size "LLCC" (PP_DSPTXTSZ). */
  displayText: string;
  /** Processing times (src/sim/pinpad/timing.ts): `fast` (none, the default) or `ppc930` (a real PPC930's). */
  timing: TimingName;
  /** Every processing time multiplied by this (default 1, the real times; `--timing-scale`). */
  timingScale: number;
  /**
   * The version its answers follow: `2.20`, or `2.12` as the PPC930 of the public log answers
   * (GIX data in its own order, 2.12 ids 8030h/8031h/8034h this version does not list, DEX options refused).
   */
  answers: '2.20' | '2.12';
}

function slots(present: readonly number[], supported = 10): string {
  return Array.from({ length: 100 }, (_, i) => (present.includes(i) ? '1' : i < supported ? '0' : '2')).join('');
}

export const DEFAULT_PROFILE: Readonly<VirtualPinpadProfile> = Object.freeze({
  manufacturer: 'OMNIPOS VIRTUAL',
  model: 'VPP-1;8MB',
  serialNumber: 'VPP0000000001',
  partNumber: 'VPP-1/TCP/PTY',
  firmware: 'VSO 1.0.0',
  specVersion: '2.20',
  managerVersion: '001.00 261122',
  appVersion: '001.00 261122',
  kernelVersion: 'VK 4.3',
  contactless: true,
  classicOnly: false,
  keys: { mkPin: slots([]), mkData: slots([]), dukptPin: slots([1]), dukptData: slots([2]) },
  // the first KSN of the PIN key its PIN blocks are made under (card/keys.ts); GIX reports it with the counter in use
  dukptPinKsn: { '01': SANDBOX_KEYS.pinInitialKsn },
  displayText: '0216',
  timing: 'fast',
  timingScale: 1,
  answers: '2.20',
});

/** The default profile with `overrides`. */
export function profile(overrides: Partial<VirtualPinpadProfile> = {}): VirtualPinpadProfile {
  return {
    ...DEFAULT_PROFILE,
    ...overrides,
    keys: { ...DEFAULT_PROFILE.keys, ...overrides.keys },
    dukptPinKsn: { ...(overrides.dukptPinKsn ?? DEFAULT_PROFILE.dukptPinKsn) },
  };
}
