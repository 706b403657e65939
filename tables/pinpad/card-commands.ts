import { field, type Layout } from './formats.js';

/**
 * The card, table and multimedia commands of ABECS 2.20 (guilhermecabral05/abecs-rust
 * protocolo_abecs_2_20.md) this product drives, with their flags from §3.3–§3.5 and §3.7:
 * `blocking` (waits for the cardholder), `abecs` (PARID/PARLEN parameters) — the flag columns
 * are lost in the transcription; they are read from each command's layout (PARIDs or fixed
 * fields) and its text ("aguarda", "blocante"). Kept beside `commands.ts` (issue 4's rows).
 */
export const CARD_COMMANDS = {
  CEX: { section: '3.3.1', blocking: true, abecs: true },
  EBX: { section: '3.3.6', blocking: false, abecs: true },
  GPN: { section: '3.3.11', blocking: true, abecs: false },
  GTK: { section: '3.3.12', blocking: false, abecs: true },
  MNU: { section: '3.3.13', blocking: true, abecs: true },
  RMC: { section: '3.3.14', blocking: true, abecs: false },
  MLI: { section: '3.4.1', blocking: false, abecs: true },
  MLR: { section: '3.4.2', blocking: false, abecs: true },
  MLE: { section: '3.4.3', blocking: false, abecs: true },
  DSI: { section: '3.4.6', blocking: false, abecs: true },
  TLI: { section: '3.5.2', blocking: false, abecs: false },
  TLR: { section: '3.5.3', blocking: false, abecs: false },
  TLE: { section: '3.5.4', blocking: false, abecs: false },
  GCX: { section: '3.7.1', blocking: true, abecs: true },
  GOX: { section: '3.7.3', blocking: true, abecs: true },
  // Blocking only when a contactless card must be shown again for issuer scripts (§3.7.4 note 2).
  FCX: { section: '3.7.4', blocking: true, abecs: true },
} as const satisfies Record<string, { section: string; blocking: boolean; abecs: boolean }>;

export type CardCommandId = keyof typeof CARD_COMMANDS;

/** Fixed-field layouts of the classic card and table commands (section beside each). */
export const CARD_LAYOUTS = {
  /** §3.3.11 GPN command (CMD_LEN1 = 093 with a 19-character PAN field). */
  GPN_REQUEST: [
    field('GPN_METHOD', 'N1'),
    field('GPN_KEYIDX', 'N2'),
    field('GPN_WKENC', 'H32'),
    field('GPN_PANLEN', 'N2'),
    field('GPN_PAN', 'A19'),
    field('GPN_ENTRIES', 'N1'),
    field('GPN_MIN1', 'N2'),
    field('GPN_MAX1', 'N2'),
    field('GPN_MSG1', 'S32'),
  ],
  /** §3.3.11 GPN response (fixed 036). */
  GPN_RESPONSE: [field('GPN_PINBLK', 'H16'), field('GPN_KSN', 'H20')],
  /** §3.3.14 RMC command: RMC_MSG, 2 lines of 16. */
  RMC_REQUEST: [field('RMC_MSG', 'S32')],
  /** §3.5.2 TLI command (fixed 012). */
  TLI_REQUEST: [field('TLI_ACQIDX', 'N2'), field('TLI_TABVER', 'A10')],
  /** §3.5.3 TLR command: TLR_NREC then the §4.1 records, each starting with its TAB_LEN. */
  TLR_REQUEST: [field('TLR_NREC', 'N2'), field('TLR_RECORDS', 'A..997')],
} as const satisfies Record<string, Layout>;

/** PP_CARDTYPE (§3.7.1). */
export const CARD_TYPES = { '00': 'stripe', '03': 'chip', '05': 'contactless-stripe', '06': 'contactless-chip' } as const;
export type CardTypeCode = keyof typeof CARD_TYPES;
export type CardType = (typeof CARD_TYPES)[CardTypeCode];

/** PP_ICCSTAT (§3.7.1): the last chip read's status, sent with a stripe read. */
export const ICC_STATUS = { '0': 'ok', '1': 'fallback', '2': 'app-not-supported' } as const;

/** PP_EVENT of CEX (§3.3.1). */
export const CEX_EVENTS = {
  '00': 'key-ok',
  '02': 'key-up',
  '03': 'key-down',
  '04': 'key-f1',
  '05': 'key-f2',
  '06': 'key-f3',
  '07': 'key-f4',
  '08': 'key-clear',
  '13': 'key-cancel',
  '90': 'stripe',
  '91': 'icc-removed',
  '92': 'icc-inserted',
  '93': 'ctls-not-detected',
  '94': 'ctls-detected',
} as const;

/** SPE_TRNTYPE (§3.1.3.1, ISO 8583:1987 processing code). */
export const TRANSACTION_TYPES = { purchase: 0x00, withdrawal: 0x01, cashback: 0x09, refund: 0x20, balance: 0x30 } as const;
export type TransactionType = keyof typeof TRANSACTION_TYPES;

/** SPE_MFINFO type byte (§3.1.3.1). */
export const MEDIA_TYPES = { png: 0x01, jpg: 0x02, gif: 0x03 } as const;

/**
 * GCX statuses after which the terminal runs GCX again with contactless off (§3.7.1 note 1);
 * ST_CTLSCOMMERR only the second time in a row. ST_CTLSEXTCVM: "see phone" and run it again (note 2).
 */
export const CTLS_OFF_STATUSES = [83, 79, 84, 85, 82, 87] as const; // CTLSPROBLEMS, CARDBLOCKED, CTLSAPPNAV, CTLSAPPNAUT, CTLSINVALIDAT, CTLSIFCHG
export const ST_CTLSCOMMERR = 81;
export const ST_CTLSMULTIPLE = 80;
export const ST_CTLSEXTCVM = 86;
