import { COMMANDS, type CommandRow } from './commands.js';
import { field, type Layout } from './formats.js';

/**
 * The card, table and multimedia commands this product drives (§3.3–§3.5, §3.7): their rows of the one
 * table, `commands.ts`, with `abecs` for PARID/PARLEN parameters.
 */
const CARD_IDS = [
  'CEX',
  'EBX',
  'GPN',
  'GTK',
  'MNU',
  'RMC',
  'MLI',
  'MLR',
  'MLE',
  'DSI',
  'TLI',
  'TLR',
  'TLE',
  'GCX',
  'GOX',
  'FCX',
] as const;
export const CARD_COMMANDS = Object.fromEntries(
  CARD_IDS.map((id) => [id, { ...COMMANDS[id], abecs: COMMANDS[id].family === 'abecs' }]),
) as Record<(typeof CARD_IDS)[number], CommandRow & { readonly abecs: boolean }>;

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
export const CARD_TYPES = {
  '00': 'stripe',
  '03': 'chip',
  '05': 'contactless-stripe',
  '06': 'contactless-chip',
} as const;
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
export const TRANSACTION_TYPES = {
  purchase: 0x00,
  withdrawal: 0x01,
  cashback: 0x09,
  refund: 0x20,
  balance: 0x30,
} as const;
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
