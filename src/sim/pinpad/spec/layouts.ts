import { layout, type Layout } from './formats.js';

/**
 * The fixed-field blocks the virtual pinpad reads or writes, from the command tables of ABECS 2.20
 * (guilhermecabral05/abecs-rust protocolo_abecs_2_20.md, line of each beside it; the obsolete card
 * commands as in protocolo_abecs_2_12.md §3.6, the same in 2.20). Only what the pinpad itself checks.
 */
export const LAYOUTS = {
  /** §3.2.3 GIN command (l. 3048). */
  GIN_REQUEST: layout('GIN_ACQIDX N2'),
  /** §3.2.3 GIN answer for GIN_ACQIDX "00" (l. 3069-3092). */
  GIN_00: layout(
    'GIN_MNAME A20, GIN_MODEL A19, GIN_CTLSSUP A1, GIN_SOVER A20, GIN_SPECVER A4, GIN_MANVER A16, GIN_SERNUM A20',
  ),
  /** §3.2.3 for "02" (l. 3115-3132). */
  GIN_02: layout('GIN_ACQNAM A8, GIN_KRNLVER A12, GIN_APPVERS A13, GIN_SPECVER A4, GIN_RUF1 A3, GIN_RUF2 N2'),
  /** §3.2.3 for "03" (l. 3149-3180). */
  GIN_03: layout(
    'GIN_ACQNAM A6, GIN_KRNLVER A4, GIN_CTLSVER A4, GIN_MCTLSVER A3, GIN_VCTLSVER A3, GIN_APPVERS A13, GIN_SPECVER A4, GIN_RUF3 A2, GIN_DUKPT A1, GIN_RUF2 N2',
  ),
  /** §3.2.3 for any other index (l. 3197-3210). */
  GIN_OTHER: layout('GIN_ACQNAME A20, GIN_APPVERS A13, GIN_SPECVER A4, GIN_RUF1 A3, GIN_RUF2 N2'),
  /** §3.3.4 DEX command (l. 4545-4552): DEX_OPTIONS is new in 2.20. */
  DEX_REQUEST: layout('DEX_MSGLEN N3, DEX_MSG S..160 <-DEX_MSGLEN, DEX_OPTIONS N6 ?'),
  /** §3.3.11 GPN command (l. 5222-5258). */
  GPN_REQUEST: layout(
    'GPN_METHOD N1, GPN_KEYIDX N2, GPN_WKENC H32, GPN_PANLEN N2, GPN_PAN A19, GPN_ENTRIES N1, GPN_MIN1 N2, GPN_MAX1 N2, GPN_MSG1 S32',
  ),
  /** §3.5.2 TLI command (l. 6878-6883). */
  TLI_REQUEST: layout('TLI_ACQIDX N2, TLI_TABVER A10'),
  /** §3.6.1 GCR command's fixed head (l. 7276-7299), before GCR_QTDAPP × GCR_IDAPPn A4. */
  GCR_HEAD: layout(
    'GCR_ACQIDXREQ N2, GCR_APPTYPREQ N2, GCR_AMOUNT N12, GCR_DATE N6, GCR_TIME N6, GCR_TABVER A10, GCR_QTDAPP N2',
  ),
  /** §3.6.3 GOC command's block 1 up to GOC_ACQPRLEN (l. 7846-7886). */
  GOC_HEAD: layout(
    'GOC_AMOUNT N12, GOC_CASHBACK N12, GOC_EXCLIST N1, GOC_CONNECT N1, GOC_RUF1 N1, GOC_METHOD N1, GOC_KEYIDX N2, GOC_WKENC H32, GOC_RISKMAN N1, GOC_FLRLIMIT H8, GOC_TPBRS N2, GOC_TVBRS H8, GOC_MTPBRS N2, GOC_ACQPRLEN N3',
  ),
} as const satisfies Record<string, Layout>;

/** The GIN answer's layout for an acquirer index (§3.2.3). */
export function ginAnswerLayout(acqIdx: number): Layout {
  if (acqIdx === 0) return LAYOUTS.GIN_00;
  if (acqIdx === 2) return LAYOUTS.GIN_02;
  if (acqIdx === 3) return LAYOUTS.GIN_03;
  return LAYOUTS.GIN_OTHER;
}
