/**
 * Which parameters each "Abecs" command takes and their presence (ABECS 2.20, guilhermecabral05/abecs-rust
 * protocolo_abecs_2_20.md, the "Comando" table of each section: M mandatory — missing gives
 * ST_MANDAT; MD mandatory depending on another parameter — the command's handler decides; O optional).
 * Parameters not listed are "not foreseen" for the command and are ignored (§3.1.3.1 "Regras de
 * composição", §6.2.2). `repeats` names the parameters that may come more than once (MNU's options,
 * MLR's pieces); any other repeat keeps its first value (§6.2.2). `robust` names a parameter the
 * pinpad must take whatever its length and characters, "por uma questão de robustez": SPE_CEXOPT
 * (§6.5.1: any size, a character out of range counts as "0"), SPE_TRACKS (§6.5.12: the same) and
 * SPE_MFINFO (§6.6.1: any size of at least 7 bytes, checked by the command).
 */
export type Presence = 'M' | 'MD' | 'O';

export interface CommandParams {
  readonly section: string;
  readonly params: Readonly<Record<string, Presence>>;
  readonly repeats?: readonly string[];
  readonly robust?: readonly string[];
}

export const ABECS_COMMAND_PARAMS = {
  GIX: { section: '3.2.4', params: { SPE_IDLIST: 'O' } },
  CLX: { section: '3.2.7', params: { SPE_DSPMSG: 'O', SPE_MFNAME: 'O' } },
  CEX: { section: '3.3.1', params: { SPE_CEXOPT: 'M', SPE_TIMEOUT: 'O', SPE_PANMASK: 'O' }, robust: ['SPE_CEXOPT'] },
  EBX: {
    section: '3.3.6',
    params: { SPE_DATAIN: 'M', SPE_MTHDDAT: 'M', SPE_KEYIDX: 'M', SPE_WKENC: 'MD', SPE_IVCBC: 'O' },
  },
  GCD: {
    section: '3.3.8',
    params: { SPE_MSGIDX: 'M', SPE_GCDOPT: 'O', SPE_MINDIG: 'O', SPE_MAXDIG: 'O', SPE_TIMEOUT: 'O' },
  },
  GTK: {
    section: '3.3.12',
    params: {
      SPE_TRACKS: 'O',
      SPE_MTHDDAT: 'O',
      SPE_IVCBC: 'O',
      SPE_OPNDIG: 'O',
      SPE_KEYIDX: 'MD',
      SPE_WKENC: 'MD',
      SPE_PBKMOD: 'MD',
      SPE_PBKEXP: 'MD',
    },
    robust: ['SPE_TRACKS'],
  },
  MNU: { section: '3.3.13', params: { SPE_TIMEOUT: 'O', SPE_DSPMSG: 'O', SPE_MNUOPT: 'M' }, repeats: ['SPE_MNUOPT'] },
  MLI: { section: '3.4.1', params: { SPE_MFNAME: 'M', SPE_MFINFO: 'M' }, robust: ['SPE_MFINFO'] },
  MLR: { section: '3.4.2', params: { SPE_DATAIN: 'M' }, repeats: ['SPE_DATAIN'] },
  MLE: { section: '3.4.3', params: {} },
  DSI: { section: '3.4.6', params: { SPE_MFNAME: 'M' } },
  GCX: {
    section: '3.7.1',
    params: {
      SPE_TRNTYPE: 'O',
      SPE_ACQREF: 'O',
      SPE_APPTYPE: 'O',
      SPE_AIDLIST: 'O',
      SPE_AMOUNT: 'O',
      SPE_CASHBACK: 'O',
      SPE_TRNCURR: 'O',
      SPE_TRNDATE: 'M',
      SPE_TRNTIME: 'M',
      SPE_GCXOPT: 'O',
      SPE_PANMASK: 'O',
      SPE_EMVDATA: 'O',
      SPE_TAGLIST: 'O',
      SPE_TIMEOUT: 'O',
      SPE_DSPMSG: 'O',
    },
  },
  GOX: {
    section: '3.7.3',
    params: {
      SPE_ACQREF: 'M',
      SPE_TRNTYPE: 'O',
      SPE_AMOUNT: 'O',
      SPE_CASHBACK: 'O',
      SPE_TRNCURR: 'O',
      SPE_GOXOPT: 'O',
      SPE_MTHDPIN: 'M',
      SPE_KEYIDX: 'M',
      SPE_WKENC: 'MD',
      SPE_DSPMSG: 'O',
      SPE_TRMPAR: 'O',
      SPE_EMVDATA: 'O',
      SPE_TAGLIST: 'O',
      SPE_TIMEOUT: 'O',
    },
  },
  FCX: {
    section: '3.7.4',
    params: { SPE_FCXOPT: 'M', SPE_ARC: 'MD', SPE_EMVDATA: 'O', SPE_TAGLIST: 'O', SPE_TIMEOUT: 'O' },
  },
} as const satisfies Record<string, CommandParams>;

/**
 * S-format parameters that may also hold CR (0Dh) as a line break (§3.1.3.1 SPE_DSPMSG: "com
 * caracteres de quebras de linha (0Dh)").
 */
export const CR_ALLOWED: ReadonlySet<string> = new Set(['SPE_DSPMSG']);

/** The fixed-field ("classic", BibComp) commands: from the one table, `commands.ts`. */
export { CLASSIC_COMMAND_IDS } from './commands.js';

/**
 * Parameters whose content the specification narrows beyond their format: SPE_MFNAME (§3.1.3.1,
 * 001Eh A8) is "somente caracteres numéricos e letras, sem espaços ou símbolos". A8 is a fixed length
 * (§1.3) and spaces, the only padding A knows, are excluded: exactly 8 letters or digits (the
 * examples of §3.4.1 and §3.4.6 carry "QRCODE01"). A shorter name is refused before it is sent.
 */
export const PARAM_PATTERNS: Readonly<Record<string, RegExp>> = { SPE_MFNAME: /^[A-Za-z0-9]{8}$/ };
