/**
 * The ABECS §4.1 table records the pinpad holds (AID, CA public key, revoked certificate), as data
 * walked by one codec (`codec.ts`). Source: ABECS pinpad specification v2.20, §4.1, §4.1.1–§4.1.3
 * (public transcription `guilhermecabral05/abecs-rust:protocolo_abecs_2_20.md`).
 *
 * Formats: N digits, H upper-case hex digits, A printable ASCII without spaces being required,
 * S printable ASCII (spaces allowed). A and S are both checked as printable ASCII.
 */
export type FieldFormat = 'N' | 'H' | 'A' | 'S';

export interface FieldLayout {
  readonly name: string;
  readonly format: FieldFormat;
  readonly size: number;
  /** EMV tag the field carries, when it has one (for display). */
  readonly tag?: string;
}

/** TAB_LEN N3, TAB_ID N1 (1 AID, 2 CAPK, 3 revoked), TAB_ACQ N2 (01–99; 00 = merged CA keys), TAB_RECIDX A2. */
export const HEADER: readonly FieldLayout[] = [
  { name: 'TAB_LEN', format: 'N', size: 3 },
  { name: 'TAB_ID', format: 'N', size: 1 },
  { name: 'TAB_ACQ', format: 'N', size: 2 },
  { name: 'TAB_RECIDX', format: 'A', size: 2 },
];

/** §4.1.1 AID record body. Lengths: 284 (BibComp, up to T1_ARCOFFLN), 314 (v2.0x, up to T1_CTLSTACONL), 340 (v2.20). */
export const AID_FIELDS: readonly FieldLayout[] = [
  { name: 'T1_AIDLEN', format: 'N', size: 2 },
  { name: 'T1_AID', format: 'H', size: 32 },
  { name: 'T1_APPTYPE', format: 'N', size: 2 },
  { name: 'T1_DEFLABEL', format: 'S', size: 16 },
  { name: 'T1_ICCSTD', format: 'N', size: 2 },
  { name: 'T1_APPVER1', format: 'H', size: 4, tag: '9F09' },
  { name: 'T1_APPVER2', format: 'H', size: 4, tag: '9F09' },
  { name: 'T1_APPVER3', format: 'H', size: 4, tag: '9F09' },
  { name: 'T1_TRMCNTRY', format: 'N', size: 3, tag: '9F1A' },
  { name: 'T1_TRNCURR', format: 'N', size: 3, tag: '5F2A' },
  { name: 'T1_TRNCRREXP', format: 'N', size: 1, tag: '5F36' },
  { name: 'T1_MERCHID', format: 'S', size: 15, tag: '9F16' },
  { name: 'T1_MCC', format: 'N', size: 4, tag: '9F15' },
  { name: 'T1_TRMID', format: 'S', size: 8, tag: '9F1C' },
  { name: 'T1_TRMCAPAB', format: 'H', size: 6, tag: '9F33' },
  { name: 'T1_ADDTRMCP', format: 'H', size: 10, tag: '9F40' },
  { name: 'T1_TRMTYP', format: 'N', size: 2, tag: '9F35' },
  { name: 'T1_TACDEF', format: 'H', size: 10, tag: 'DF9F0D' },
  { name: 'T1_TACDEN', format: 'H', size: 10, tag: 'DF9F0E' },
  { name: 'T1_TACONL', format: 'H', size: 10, tag: 'DF9F0F' },
  { name: 'T1_FLRLIMIT', format: 'H', size: 8, tag: '9F1B' },
  { name: 'T1_TCC', format: 'A', size: 1, tag: '9F53' },
  { name: 'T1_CTLSZEROAM', format: 'A', size: 1 },
  { name: 'T1_CTLSMODE', format: 'A', size: 1 },
  { name: 'T1_CTLSTRNLIM', format: 'H', size: 8, tag: 'DF8124' },
  { name: 'T1_CTLSFLRLIM', format: 'H', size: 8, tag: 'DF8123' },
  { name: 'T1_CTLSCVMLIM', format: 'H', size: 8, tag: 'DF8126' },
  { name: 'T1_CTLSAPPVER', format: 'H', size: 4, tag: '9F6D' },
  // The transcription reads "N1 N5" (a PDF artefact): the record lengths 284/314/340 fix it at 1.
  { name: 'T1_RUF1', format: 'N', size: 1 },
  { name: 'T1_TDOLDEF', format: 'H', size: 40 },
  { name: 'T1_DDOLDEF', format: 'H', size: 40 },
  { name: 'T1_ARCOFFLN', format: 'A', size: 8 },
  // 314 (v2.0x)
  { name: 'T1_CTLSTACDEF', format: 'H', size: 10, tag: 'DF8120' },
  { name: 'T1_CTLSTACDEN', format: 'H', size: 10, tag: 'DF8121' },
  { name: 'T1_CTLSTACONL', format: 'H', size: 10, tag: 'DF8122' },
  // 340 (v2.20)
  { name: 'T1_CTLSTRMCP', format: 'H', size: 6, tag: '9F33' },
  { name: 'T1_MOBCVM', format: 'N', size: 1 },
  { name: 'T1_CTLSADDTC', format: 'H', size: 10, tag: '9F40' },
  { name: 'T1_CTLSMBTLIM', format: 'H', size: 8, tag: 'DF8125' },
  { name: 'T1_CTLSISSSCR', format: 'N', size: 1 },
];

/** The AID record lengths a pinpad must accept; longer ones carry future fields (ignored). */
export const AID_LENGTHS = [284, 314, 340] as const;

/** §4.1.2 CA public key record body (fixed 611). */
export const CAPK_FIELDS: readonly FieldLayout[] = [
  { name: 'T2_RID', format: 'H', size: 10 },
  { name: 'T2_CAPKIDX', format: 'H', size: 2, tag: '9F22' },
  { name: 'T2_RUF1', format: 'N', size: 2 },
  { name: 'T2_EXPLEN', format: 'N', size: 1 },
  { name: 'T2_EXP', format: 'H', size: 6 },
  { name: 'T2_MODLEN', format: 'N', size: 3 },
  { name: 'T2_MOD', format: 'H', size: 496 },
  { name: 'T2_CHKSTAT', format: 'N', size: 1 },
  { name: 'T2_CHECKSUM', format: 'H', size: 40 },
  { name: 'T2_RUF2', format: 'N', size: 42 },
];

/** §4.1.3 revoked certificate record body (fixed 026). */
export const REVOKED_FIELDS: readonly FieldLayout[] = [
  { name: 'T3_RID', format: 'H', size: 10 },
  { name: 'T3_CAPKIDX', format: 'H', size: 2 },
  { name: 'T3_CERTSN', format: 'H', size: 6 },
];

export const TABLE_IDS = { aid: 1, capk: 2, revoked: 3 } as const;
export type RecordKind = keyof typeof TABLE_IDS;

export const BODIES: Readonly<Record<RecordKind, readonly FieldLayout[]>> = {
  aid: AID_FIELDS,
  capk: CAPK_FIELDS,
  revoked: REVOKED_FIELDS,
};

export function layoutLength(fields: readonly FieldLayout[]): number {
  return fields.reduce((n, f) => n + f.size, 0);
}
