/**
 * The parameters each Abecs command takes, from the "Comando" table of its section in ABECS 2.20
 * (guilhermecabral05/abecs-rust protocolo_abecs_2_20.md, heading line beside each): M mandatory
 * (missing: ST_MANDAT), MD mandatory depending on another (the handler decides), O optional. A
 * parameter not listed is not foreseen and is ignored (§3.1.3.1 "Regras de composição", §6.2.2).
 */
export type SimPresence = 'M' | 'MD' | 'O';

const TABLE = `
GIX 3266 SPE_IDLIST:O
CLX 3831 SPE_DSPMSG:O SPE_MFNAME:O
CEX 3958 SPE_CEXOPT:M SPE_TIMEOUT:O SPE_PANMASK:O
EBX 4698 SPE_DATAIN:M SPE_MTHDDAT:M SPE_KEYIDX:M SPE_WKENC:MD SPE_IVCBC:O
GCD 4888 SPE_MSGIDX:M SPE_GCDOPT:O SPE_MINDIG:O SPE_MAXDIG:O SPE_TIMEOUT:O
GTK 5342 SPE_TRACKS:O SPE_MTHDDAT:O SPE_IVCBC:O SPE_OPNDIG:O SPE_KEYIDX:MD SPE_WKENC:MD SPE_PBKMOD:MD SPE_PBKEXP:MD
MNU 5692 SPE_TIMEOUT:O SPE_DSPMSG:O SPE_MNUOPT:M
MLI 5909 SPE_MFNAME:M SPE_MFINFO:M
MLR 5966 SPE_DATAIN:M
MLE 6511
DMF 6640 SPE_MFNAME:M
DSI 6698 SPE_MFNAME:M
GCX 8309 SPE_TRNTYPE:O SPE_ACQREF:O SPE_APPTYPE:O SPE_AIDLIST:O SPE_AMOUNT:O SPE_CASHBACK:O SPE_TRNCURR:O SPE_TRNDATE:M SPE_TRNTIME:M SPE_GCXOPT:O SPE_PANMASK:O SPE_EMVDATA:O SPE_TAGLIST:O SPE_TIMEOUT:O SPE_DSPMSG:O
GED 8721 SPE_TAGLIST:M
GOX 8795 SPE_ACQREF:M SPE_TRNTYPE:O SPE_AMOUNT:O SPE_CASHBACK:O SPE_TRNCURR:O SPE_GOXOPT:O SPE_MTHDPIN:M SPE_KEYIDX:M SPE_WKENC:MD SPE_DSPMSG:O SPE_TRMPAR:O SPE_EMVDATA:O SPE_TAGLIST:O SPE_TIMEOUT:O
FCX 9023 SPE_FCXOPT:M SPE_ARC:MD SPE_EMVDATA:O SPE_TAGLIST:O SPE_TIMEOUT:O
`;

export interface SimCommandParams {
  readonly params: ReadonlyMap<string, SimPresence>;
  /** May come more than once, every value kept: MNU's options (§3.3.13), MLR's pieces (§3.4.2). */
  readonly repeats: ReadonlySet<string>;
  /**
   * Taken whatever its length and characters, "por uma questão de robustez": SPE_CEXOPT (§6.5.1),
   * SPE_TRACKS (§6.5.12), SPE_MFINFO (§6.6.1, checked by the command itself).
   */
  readonly robust: ReadonlySet<string>;
}

const REPEATS: Readonly<Record<string, readonly string[]>> = { MNU: ['SPE_MNUOPT'], MLR: ['SPE_DATAIN'] };
const ROBUST: Readonly<Record<string, readonly string[]>> = {
  CEX: ['SPE_CEXOPT'],
  GTK: ['SPE_TRACKS'],
  MLI: ['SPE_MFINFO'],
};

export const SIM_COMMAND_PARAMS: ReadonlyMap<string, SimCommandParams> = new Map(
  TABLE.trim()
    .split('\n')
    .map((line) => {
      const [id, , ...pairs] = line.split(' ');
      const params = new Map(
        pairs.map((p) => {
          const m = /^(SPE_\w+):(MD|M|O)$/.exec(p);
          if (!m) throw new Error(`spec/params: cannot read "${p}" of ${id}`);
          return [m[1]!, m[2] as SimPresence] as const;
        }),
      );
      return [id!, { params, repeats: new Set(REPEATS[id!] ?? []), robust: new Set(ROBUST[id!] ?? []) }] as const;
    }),
);

/** S parameters that may also hold CR (0Dh), a line break (§3.1.3.1 SPE_DSPMSG). */
export const CR_IN_TEXT: ReadonlySet<string> = new Set(['SPE_DSPMSG']);

/**
 * Content the specification narrows beyond the format. SPE_MFNAME (001Eh, A8) is "somente caracteres
 * numéricos e letras, sem espaços ou símbolos" (§3.1.3.1, l. 2188): A8 is a fixed length of 8 (§1.3),
 * and without spaces there is no padding, so exactly 8 letters or digits ("QRCODE01" in §3.4.1's and
 * §3.4.6's examples); "QRCODE" is refused.
 */
export const CONTENT_RULES: Readonly<Record<string, RegExp>> = { SPE_MFNAME: /^[A-Za-z0-9]{8}$/ };
