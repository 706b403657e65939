import type { FieldFormat } from './formats.js';

/**
 * Identifiers of "Abecs" command parameters (SPE_xxx, §3.1.3.1) and response data (PP_xxx,
 * §3.1.3.2) of ABECS 2.20 (guilhermecabral05/abecs-rust protocolo_abecs_2_20.md), with their
 * formats. `gix: true` marks the data a GIX without SPE_IDLIST returns (the spec's "(†)").
 * `sensitive: true` marks card data that must never reach a log.
 */
export interface AbecsId {
  readonly id: number;
  readonly name: string;
  readonly format: FieldFormat;
  /** Maximum length in bytes (fixed length when `variable` is false). */
  readonly length: number;
  readonly variable: boolean;
  readonly gix?: boolean;
  readonly sensitive?: boolean;
}

function p(id: number, name: string, notation: string, flags: { gix?: boolean; sensitive?: boolean } = {}): AbecsId {
  const m = /^([ASNHXB])(\.\.)?(\d{1,3})$/.exec(notation)!;
  return { id, name, format: m[1] as FieldFormat, length: Number(m[3]), variable: Boolean(m[2]), ...flags };
}

/** SPE_xxx: parameters the terminal sends (§3.1.3.1 "Lista de parâmetros previstos"). */
export const SPE_PARAMS: readonly AbecsId[] = [
  p(0x0001, 'SPE_IDLIST', 'B..128'),
  p(0x0002, 'SPE_MTHDPIN', 'N1'),
  p(0x0003, 'SPE_MTHDDAT', 'N2'),
  p(0x0004, 'SPE_TAGLIST', 'B..128'),
  p(0x0005, 'SPE_EMVDATA', 'B..512'),
  p(0x0006, 'SPE_CEXOPT', 'A6'),
  p(0x0007, 'SPE_TRACKS', 'N4'),
  p(0x0008, 'SPE_OPNDIG', 'N1'),
  p(0x0009, 'SPE_KEYIDX', 'N2'),
  p(0x000a, 'SPE_WKENC', 'B16', { sensitive: true }),
  p(0x000b, 'SPE_MSGIDX', 'X2'),
  p(0x000c, 'SPE_TIMEOUT', 'X1'),
  p(0x000d, 'SPE_MINDIG', 'X1'),
  p(0x000e, 'SPE_MAXDIG', 'X1'),
  p(0x000f, 'SPE_DATAIN', 'B..995'),
  p(0x0010, 'SPE_ACQREF', 'N2'),
  p(0x0011, 'SPE_APPTYPE', 'N..20'),
  p(0x0012, 'SPE_AIDLIST', 'A..512'),
  p(0x0013, 'SPE_AMOUNT', 'N12'),
  p(0x0014, 'SPE_CASHBACK', 'N12'),
  p(0x0015, 'SPE_TRNDATE', 'N6'),
  p(0x0016, 'SPE_TRNTIME', 'N6'),
  p(0x0017, 'SPE_GCXOPT', 'N5'),
  p(0x0018, 'SPE_GOXOPT', 'N5'),
  p(0x0019, 'SPE_FCXOPT', 'N4'),
  p(0x001a, 'SPE_TRMPAR', 'B10'),
  p(0x001b, 'SPE_DSPMSG', 'S..128'),
  p(0x001c, 'SPE_ARC', 'A2'),
  p(0x001d, 'SPE_IVCBC', 'B8'),
  p(0x001e, 'SPE_MFNAME', 'A8'),
  p(0x001f, 'SPE_MFINFO', 'B10'),
  p(0x0020, 'SPE_MNUOPT', 'S..24'),
  p(0x0021, 'SPE_TRNTYPE', 'B1'),
  p(0x0022, 'SPE_TRNCURR', 'N3'),
  p(0x0023, 'SPE_PANMASK', 'N4'),
  p(0x0024, 'SPE_PBKMOD', 'B256'),
  p(0x0025, 'SPE_PBKEXP', 'B..3'),
  p(0x0026, 'SPE_GCDOPT', 'N4'),
];

/** PP_xxx: data the pinpad returns (§3.1.3.2 "Lista de dados de retorno previstos"). */
export const PP_DATA: readonly AbecsId[] = [
  p(0x8001, 'PP_SERNUM', 'A..32', { gix: true }),
  p(0x8002, 'PP_PARTNBR', 'A..32', { gix: true }),
  p(0x8003, 'PP_MODEL', 'A..20', { gix: true }),
  p(0x8004, 'PP_MNNAME', 'A..20', { gix: true }),
  p(0x8005, 'PP_CAPAB', 'A10', { gix: true }),
  p(0x8006, 'PP_SOVER', 'A..20', { gix: true }),
  p(0x8007, 'PP_SPECVER', 'A4', { gix: true }),
  p(0x8008, 'PP_MANVERS', 'A16', { gix: true }),
  p(0x8009, 'PP_APPVERS', 'A16', { gix: true }),
  p(0x800a, 'PP_GENVERS', 'A16', { gix: true }),
  p(0x800b, 'PP_CTLSCAPAB', 'A..16', { gix: true }),
  p(0x8010, 'PP_KRNLVER', 'A..20', { gix: true }),
  p(0x8011, 'PP_CTLSVER', 'A..20', { gix: true }),
  p(0x8012, 'PP_MCTLSVER', 'A..20', { gix: true }),
  p(0x8013, 'PP_VCTLSVER', 'A..20', { gix: true }),
  p(0x8014, 'PP_AECTLSVER', 'A..20', { gix: true }),
  p(0x8015, 'PP_DPCTLSVER', 'A..20', { gix: true }),
  p(0x8016, 'PP_PUREVER', 'A..20', { gix: true }),
  p(0x8018, 'PP_QPCTLSVER', 'A..20', { gix: true }),
  p(0x8020, 'PP_DSPTXTSZ', 'N4', { gix: true }),
  p(0x8021, 'PP_DSPGRSZ', 'N8', { gix: true }),
  p(0x8022, 'PP_MFSUP', 'A..20', { gix: true }),
  p(0x8032, 'PP_MKTDESP', 'A100', { gix: true }),
  p(0x8033, 'PP_MKTDESD', 'A100', { gix: true }),
  p(0x8035, 'PP_DKPTTDESP', 'A100', { gix: true }),
  p(0x8036, 'PP_DKPTTDESD', 'A100', { gix: true }),
  p(0x8040, 'PP_EVENT', 'A2'),
  p(0x8041, 'PP_TRK1INC', 'A..60', { sensitive: true }),
  p(0x8042, 'PP_TRK2INC', 'A..30', { sensitive: true }),
  p(0x8043, 'PP_TRK3INC', 'A..30', { sensitive: true }),
  p(0x8044, 'PP_TRACK1', 'B..88', { sensitive: true }),
  p(0x8045, 'PP_TRACK2', 'B..28', { sensitive: true }),
  p(0x8046, 'PP_TRACK3', 'B..60', { sensitive: true }),
  p(0x8047, 'PP_TRK1KSN', 'B10'),
  p(0x8048, 'PP_TRK2KSN', 'B10'),
  p(0x8049, 'PP_TRK3KSN', 'B10'),
  p(0x804a, 'PP_ENCPAN', 'B..16', { sensitive: true }),
  p(0x804b, 'PP_ENCPANKSN', 'B10'),
  p(0x804c, 'PP_KSN', 'B10'),
  p(0x804d, 'PP_VALUE', 'A..32'),
  p(0x804e, 'PP_DATAOUT', 'B..256'),
  p(0x804f, 'PP_CARDTYPE', 'N2'),
  p(0x8050, 'PP_ICCSTAT', 'N1'),
  p(0x8051, 'PP_AIDTABINFO', 'A..120'),
  p(0x8052, 'PP_PAN', 'N..19', { sensitive: true }),
  p(0x8053, 'PP_PANSEQNO', 'N2'),
  p(0x8054, 'PP_EMVDATA', 'B..512', { sensitive: true }),
  p(0x8055, 'PP_CHNAME', 'A..26', { sensitive: true }),
  p(0x8056, 'PP_GOXRES', 'N6'),
  p(0x8057, 'PP_PINBLK', 'B8', { sensitive: true }),
  p(0x8058, 'PP_FCXRES', 'N3'),
  p(0x8059, 'PP_ISRESULTS', 'B..50'),
  p(0x805a, 'PP_BIGRAND', 'B900'),
  p(0x805b, 'PP_LABEL', 'S..16'),
  p(0x805c, 'PP_ISSCNTRY', 'N3'),
  p(0x805d, 'PP_CARDEXP', 'N6', { sensitive: true }),
  p(0x805e, 'PP_MFNAME', 'A8'),
  p(0x8060, 'PP_DEVTYPE', 'N2'),
  p(0x8062, 'PP_TLRMEM', 'X4', { gix: true }),
  p(0x8063, 'PP_ENCKRAND', 'B256', { sensitive: true }),
  p(0x8064, 'PP_BATTINFO', 'B2'),
  p(0x8065, 'PP_COMMINFO', 'N4'),
  ...Array.from({ length: 100 }, (_, n) => p(0x9100 + n, `PP_KSNTDESP${String(n).padStart(2, '0')}`, 'B10')),
  ...Array.from({ length: 100 }, (_, n) => p(0x9200 + n, `PP_KSNTDESD${String(n).padStart(2, '0')}`, 'B10')),
  ...Array.from({ length: 100 }, (_, n) => p(0x9300 + n, `PP_TABVER${String(n).padStart(2, '0')}`, 'A10')),
];

const ALL = [...SPE_PARAMS, ...PP_DATA];
const BY_ID = new Map<number, AbecsId>(ALL.map((x) => [x.id, x]));
const BY_NAME = new Map<string, AbecsId>(ALL.map((x) => [x.name, x]));

/** The definition of an identifier, or undefined for one the spec does not list (skip it: §3.1.3.2). */
export function abecsId(id: number): AbecsId | undefined {
  return BY_ID.get(id);
}

/** The definition of a named identifier (`PP_SERNUM`); undefined if unknown. */
export function abecsIdByName(name: string): AbecsId | undefined {
  return BY_NAME.get(name);
}

/** The data a GIX without SPE_IDLIST returns (marked "(†)" in §3.1.3.2), in table order. */
export const GIX_DEFAULT_IDS: readonly number[] = PP_DATA.filter((x) => x.gix).map((x) => x.id);
