/**
 * The virtual pinpad's own reading of ABECS 2.20 §3.1.3.1 "Lista de parâmetros previstos" (SPE_xxx,
 * l. 2040 of guilhermecabral05/abecs-rust protocolo_abecs_2_20.md) and §3.1.3.2 "Lista de dados de
 * retorno previstos" (PP_xxx), one line per identifier as the specification prints it: name, "(†)"
 * for what a GIX without SPE_IDLIST returns, value, format (§1.3). PP_PUREVER's row is split in the
 * transcription (l. 2424-2430); PP_KSNTDESPnn, PP_KSNTDESDnn and PP_TABVERnn are ranges (l. 2639-2660).
 * Written apart from the driver's tables/pinpad/abecs-ids.ts, so a misreading on one side shows.
 */
import type { FieldFormat } from './formats.js';

const LIST = `
  SPE_IDLIST 0001h B..128
  SPE_MTHDPIN 0002h N1
  SPE_MTHDDAT 0003h N2
  SPE_TAGLIST 0004h B..128
  SPE_EMVDATA 0005h B..512
  SPE_CEXOPT 0006h A6
  SPE_TRACKS 0007h N4
  SPE_OPNDIG 0008h N1
  SPE_KEYIDX 0009h N2
  SPE_WKENC 000Ah B16
  SPE_MSGIDX 000Bh X2
  SPE_TIMEOUT 000Ch X1
  SPE_MINDIG 000Dh X1
  SPE_MAXDIG 000Eh X1
  SPE_DATAIN 000Fh B..995
  SPE_ACQREF 0010h N2
  SPE_APPTYPE 0011h N..20
  SPE_AIDLIST 0012h A..512
  SPE_AMOUNT 0013h N12
  SPE_CASHBACK 0014h N12
  SPE_TRNDATE 0015h N6
  SPE_TRNTIME 0016h N6
  SPE_GCXOPT 0017h N5
  SPE_GOXOPT 0018h N5
  SPE_FCXOPT 0019h N4
  SPE_TRMPAR 001Ah B10
  SPE_DSPMSG 001Bh S..128
  SPE_ARC 001Ch A2
  SPE_IVCBC 001Dh B8
  SPE_MFNAME 001Eh A8
  SPE_MFINFO 001Fh B10
  SPE_MNUOPT 0020h S..24
  SPE_TRNTYPE 0021h B1
  SPE_TRNCURR 0022h N3
  SPE_PANMASK 0023h N4
  SPE_PBKMOD 0024h B256
  SPE_PBKEXP 0025h B..3
  SPE_GCDOPT 0026h N4
  PP_SERNUM (†) 8001h A..32
  PP_PARTNBR (†) 8002h A..32
  PP_MODEL (†) 8003h A..20
  PP_MNNAME (†) 8004h A..20
  PP_CAPAB (†) 8005h A10
  PP_SOVER (†) 8006h A..20
  PP_SPECVER (†) 8007h A4
  PP_MANVERS (†) 8008h A16
  PP_APPVERS (†) 8009h A16
  PP_GENVERS (†) 800Ah A16
  PP_CTLSCAPAB (†) 800Bh A..16
  PP_KRNLVER (†) 8010h A..20
  PP_CTLSVER (†) 8011h A..20
  PP_MCTLSVER (†) 8012h A..20
  PP_VCTLSVER (†) 8013h A..20
  PP_AECTLSVER (†) 8014h A..20
  PP_DPCTLSVER (†) 8015h A..20
  PP_PUREVER (†) 8016h A..20
  PP_QPCTLSVER (†) 8018h A..20
  PP_DSPTXTSZ (†) 8020h N4
  PP_DSPGRSZ (†) 8021h N8
  PP_MFSUP (†) 8022h A..20
  PP_MKTDESP (†) 8032h A100
  PP_MKTDESD (†) 8033h A100
  PP_DKPTTDESP (†) 8035h A100
  PP_DKPTTDESD (†) 8036h A100
  PP_EVENT 8040h A2
  PP_TRK1INC 8041h A..60
  PP_TRK2INC 8042h A..30
  PP_TRK3INC 8043h A..30
  PP_TRACK1 8044h B..88
  PP_TRACK2 8045h B..28
  PP_TRACK3 8046h B..60
  PP_TRK1KSN 8047h B10
  PP_TRK2KSN 8048h B10
  PP_TRK3KSN 8049h B10
  PP_ENCPAN 804Ah B..16
  PP_ENCPANKSN 804Bh B10
  PP_KSN 804Ch B10
  PP_VALUE 804Dh A..32
  PP_DATAOUT 804Eh B..256
  PP_CARDTYPE 804Fh N2
  PP_ICCSTAT 8050h N1
  PP_AIDTABINFO 8051h A..120
  PP_PAN 8052h N..19
  PP_PANSEQNO 8053h N2
  PP_EMVDATA 8054h B..512
  PP_CHNAME 8055h A..26
  PP_GOXRES 8056h N6
  PP_PINBLK 8057h B8
  PP_FCXRES 8058h N3
  PP_ISRESULTS 8059h B..50
  PP_BIGRAND 805Ah B900
  PP_LABEL 805Bh S..16
  PP_ISSCNTRY 805Ch N3
  PP_CARDEXP 805Dh N6
  PP_MFNAME 805Eh A8
  PP_DEVTYPE 8060h N2
  PP_TLRMEM (†) 8062h X4
  PP_ENCKRAND 8063h B256
  PP_BATTINFO 8064h B2
  PP_COMMINFO 8065h N4
`;

export interface SimId {
  readonly id: number;
  readonly name: string;
  readonly format: FieldFormat;
  /** The fixed length, or the longest for a variable one ("B..128"). */
  readonly length: number;
  readonly variable: boolean;
  /** Marked "(†)": returned by a GIX without SPE_IDLIST (§3.2.4). */
  readonly gixDefault: boolean;
}

function parseLine(line: string): SimId {
  const m = /^(\w+)( \(†\))? ([0-9A-F]{4})h ([ASNHXB])(\.\.)?(\d+)$/.exec(line.trim());
  if (!m) throw new Error(`spec/ids: cannot read "${line}"`);
  return {
    name: m[1]!,
    gixDefault: Boolean(m[2]),
    id: parseInt(m[3]!, 16),
    format: m[4] as FieldFormat,
    variable: Boolean(m[5]),
    length: Number(m[6]),
  };
}

/** The nn identifiers of a range: `PP_TABVERnn 9300h a 9363h A10`, nn from 00 to 99. */
function range(prefix: string, first: number, notation: string): SimId[] {
  return Array.from({ length: 100 }, (_, n) =>
    parseLine(`${prefix}${String(n).padStart(2, '0')} ${(first + n).toString(16).toUpperCase()}h ${notation}`),
  );
}

export const SIM_IDS: readonly SimId[] = [
  ...LIST.split('\n')
    .filter((l) => l.trim() !== '')
    .map(parseLine),
  ...range('PP_KSNTDESP', 0x9100, 'B10'),
  ...range('PP_KSNTDESD', 0x9200, 'B10'),
  ...range('PP_TABVER', 0x9300, 'A10'),
];

const BY_ID = new Map(SIM_IDS.map((d) => [d.id, d]));
const BY_NAME = new Map(SIM_IDS.map((d) => [d.name, d]));

/** The identifier's definition, or undefined for one the list lacks (skipped, §3.1.3.2). */
export const simId = (id: number): SimId | undefined => BY_ID.get(id);
/** The definition of a named identifier. */
export const simIdByName = (name: string): SimId | undefined => BY_NAME.get(name);
/** What a GIX without SPE_IDLIST returns, in the order of the list. */
export const GIX_DEFAULT: readonly number[] = SIM_IDS.filter((d) => d.gixDefault).map((d) => d.id);
