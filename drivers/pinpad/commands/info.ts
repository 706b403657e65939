import type { FieldValue } from '../codec/fields.js';
import type { GinResult, GixResult } from './control.js';

/** Key presence per slot 00..99, as GIX maps it (§3.1.3.2 PP_MKTDESP…): present, absent, or not supported. */
export type KeySlots = Readonly<Record<string, 'present' | 'absent' | 'unsupported'>>;

/** What a pinpad says about itself, from GIX (current pinpads) or GIN 00 + 03 (classic ones). */
export interface PinpadInfo {
  readonly source: 'GIX' | 'GIN';
  readonly manufacturer: string;
  readonly model: string;
  readonly serialNumber: string;
  /** Basic software / operating system version (PP_SOVER, GIN_SOVER). */
  readonly firmware: string;
  /** Specification version "V.VV". */
  readonly specVersion: string;
  readonly managerVersion: string;
  readonly appVersion?: string;
  readonly kernelVersion?: string;
  readonly contactless: boolean;
  /** Slots by key kind; GIN only tells DUKPT:TDES:PIN slot 01. */
  readonly keys: {
    readonly mkPin?: KeySlots;
    readonly mkData?: KeySlots;
    readonly dukptPin: KeySlots;
    readonly dukptData?: KeySlots;
  };
  /** KSNs of loaded DUKPT:TDES:PIN keys by slot, hex (not secret: the KSN travels with every PIN block). */
  readonly dukptPinKsn?: Readonly<Record<string, string>>;
}

const str = (v: FieldValue | undefined): string => (typeof v === 'string' ? v.trim() : '');

function slots(map: FieldValue | undefined): KeySlots | undefined {
  if (typeof map !== 'string' || map.length === 0) return undefined;
  const out: Record<string, 'present' | 'absent' | 'unsupported'> = {};
  [...map].forEach((c, i) => {
    const slot = String(i).padStart(2, '0');
    out[slot] = c === '1' ? 'present' : c === '0' ? 'absent' : 'unsupported';
  });
  return out;
}

/** Normalises a GIX answer. */
export function infoFromGix(gix: GixResult): PinpadInfo {
  const d = gix.data;
  const ksn: Record<string, string> = {};
  for (const e of gix.entries) {
    const m = /^PP_KSNTDESP(\d\d)$/.exec(e.name);
    if (m && e.value instanceof Uint8Array) ksn[m[1]!] = Buffer.from(e.value).toString('hex').toUpperCase();
  }
  const capab = str(d.PP_CAPAB);
  const mkPin = slots(d.PP_MKTDESP);
  const mkData = slots(d.PP_MKTDESD);
  const dukptData = slots(d.PP_DKPTTDESD);
  return {
    source: 'GIX',
    manufacturer: str(d.PP_MNNAME),
    model: str(d.PP_MODEL),
    serialNumber: str(d.PP_SERNUM),
    firmware: str(d.PP_SOVER),
    specVersion: str(d.PP_SPECVER),
    managerVersion: str(d.PP_MANVERS),
    ...(d.PP_APPVERS !== undefined ? { appVersion: str(d.PP_APPVERS) } : {}),
    ...(d.PP_KRNLVER !== undefined ? { kernelVersion: str(d.PP_KRNLVER) } : {}),
    contactless: capab.startsWith('1'),
    keys: {
      ...(mkPin ? { mkPin } : {}),
      ...(mkData ? { mkData } : {}),
      dukptPin: slots(d.PP_DKPTTDESP) ?? {},
      ...(dukptData ? { dukptData } : {}),
    },
    ...(Object.keys(ksn).length > 0 ? { dukptPinKsn: ksn } : {}),
  };
}

/** Normalises GIN 00 (general) and, when given, GIN 03 (kernel, application, DUKPT slot 01). */
export function infoFromGin(general: GinResult, acq03?: GinResult): PinpadInfo {
  const g = general.fields;
  const a = acq03?.fields;
  return {
    source: 'GIN',
    manufacturer: str(g.GIN_MNAME),
    model: str(g.GIN_MODEL),
    serialNumber: str(g.GIN_SERNUM),
    firmware: str(g.GIN_SOVER),
    specVersion: str(g.GIN_SPECVER),
    managerVersion: str(g.GIN_MANVER),
    ...(a ? { appVersion: str(a.GIN_APPVERS), kernelVersion: str(a.GIN_KRNLVER) } : {}),
    contactless: str(g.GIN_CTLSSUP) === 'C',
    keys: { dukptPin: a ? { '01': str(a.GIN_DUKPT) === 'T' ? 'present' : 'absent' } : {} },
  };
}

/**
 * The ids `info()` asks in GIX: what it reports (identity, versions, readers, key maps), not the
 * whole "(†)" set — a GIX without a list took 8 s on a real PPC930 (`transcao_completa_com_scope.txt`, lines 75-81).
 */
export const INFO_GIX_IDS: readonly number[] = [
  0x8001, // PP_SERNUM
  0x8003, // PP_MODEL
  0x8004, // PP_MNNAME
  0x8005, // PP_CAPAB
  0x8006, // PP_SOVER
  0x8007, // PP_SPECVER
  0x8008, // PP_MANVERS
  0x8009, // PP_APPVERS
  0x8010, // PP_KRNLVER
  0x8032, // PP_MKTDESP
  0x8033, // PP_MKTDESD
  0x8035, // PP_DKPTTDESP
  0x8036, // PP_DKPTTDESD
];
