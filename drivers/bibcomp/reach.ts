import { commandRow } from '../../tables/pinpad/commands.js';

/**
 * What a current pinpad allows through a BibComp library — the PPCOMP.H API, whose generic command
 * takes and gives NUL-terminated text (`PP_StartGenericCmd(INPUT psInput)`, `PP_GenericCmd(OUTPUT
 * psOutput, OUTPUT psMsgNotify)`), the library owning the link — decided from ABECS 2.20
 * (guilhermecabral05/abecs-rust protocolo_abecs_2_20.md):
 *
 * - **The classic commands cross** (GIN, DSP, DEX, GCR, GOC, FNC, GPN, RMC, GTS, TLI/TLR/TLE…): their
 *   fields are A, N, H or S text (§1.3), NUL-free both ways, and BibComp knows them (§7.4 keeps
 *   "total compatibilidade com BibComp").
 * - **No Abecs command crosses.** They are the commands "não contemplados em BibComp" (§3.1.3), and
 *   their parameters travel as CMD_PARID X2 + CMD_PARLEN X2 (§3.1.3.1): every SPE_ identifier is
 *   0001h–0026h, so every parameter starts with a 00h byte, and every datum of an answer carries a
 *   RSP_DATLEN under 0100h (§3.1.3.2), another 00h — bytes that NUL-terminated text ends at.
 * - **No secure channel** (§5.2): a secure OPN's fields are hex text, but every packet after it is
 *   DC2 and AES output (§5.2.2). Through the library the pinpad is therefore what §3.2.2 calls a
 *   pinpad without "Comunicação Segura": "o SPE não poderá usar Comandos Abecs".
 * - **No card sale.** The card data must leave the pinpad encrypted by its DUKPT data key: only
 *   Abecs commands do that (GTK §3.3.12 with SPE_MTHDDAT, EBX §3.3.6, after GCX §3.7.1). The
 *   classic GCR that the text carries gives the tracks and the PAN in clear (§3.6.1 GCR_TRK1,
 *   GCR_TRK2, GCR_PAN), and the classic ways to encrypt them are obsolete and MK/WK, not DUKPT:
 *   ENB (§3.3.7, PP_EncryptBuffer) and the "PAN Criptografado" of DWK (§3.2.5, PP_DefineWKPAN),
 *   which §3.2.5 keeps for a pinpad that does not follow the specification. (PP_GetDUKPT is GDU,
 *   §3.3.9: a KSN, no encryption.)
 * - **No typed card number**: it is typed on GCD (§3.3.8) and encrypted by EBX (§3.3.6), both Abecs.
 * The display, the information (GIN), the EMV tables (TLI/TLR/TLE) and the PIN (GPN) work.
 */
export type Reach = { readonly ok: true } | { readonly ok: false; readonly reason: string };

const TEXT_ONLY =
  "PP_StartGenericCmd/PP_GenericCmd carry NUL-terminated text, and an Abecs command's parameters and answer data hold 00h bytes (CMD_PARID 00xxh, §3.1.3.1; RSP_DATLEN, §3.1.3.2)";

/** Why a BibComp library cannot sell with a card (the §-reasoning above, in one sentence). */
export const CARD_SALE_REFUSAL =
  'not through a BibComp library: the card data must leave the pinpad encrypted by its DUKPT key, which only Abecs commands do (GCX §3.7.1, GTK §3.3.12, EBX §3.3.6), and ' +
  TEXT_ONLY +
  '; the classic GCR that the text carries gives the tracks and PAN in clear (§3.6.1), and the classic encryption (ENB §3.3.7, DWK §3.2.5) is obsolete MK/WK, not DUKPT';

/** Why a typed card number cannot be taken through a BibComp library. */
export const TYPED_PAN_REFUSAL =
  'a typed card number needs GCD (§3.3.8) and EBX (§3.3.6), Abecs commands, and ' + TEXT_ONLY;

/** The commands of a card sale the library cannot carry: refused by name before anything is sent. */
export const CARD_SALE_COMMANDS: ReadonlySet<string> = new Set(['GCX', 'GTK', 'GOX', 'FCX', 'GED']);
/** The commands of a typed card number. */
export const TYPED_PAN_COMMANDS: ReadonlySet<string> = new Set(['GCD', 'EBX']);

/** Whether command `id` can cross a BibComp library's generic command, and why not. */
export function reachOf(id: string): Reach {
  const row = commandRow(id);
  if (!row) return { ok: false, reason: `${id}: not a command of ABECS 2.20` };
  if (row.family === 'abecs') return { ok: false, reason: `${id}: an Abecs command (§3.1.3); ${TEXT_ONLY}` };
  return { ok: true };
}

/** The whole verdict, as `omnipos pinpad info` prints it for a BibComp library. */
export const BIBCOMP_REACH = {
  cardSales: { ok: false, reason: CARD_SALE_REFUSAL },
  typedCardNumber: { ok: false, reason: TYPED_PAN_REFUSAL },
  secureChannel: {
    ok: false,
    reason: 'after a secure OPN every packet is DC2 and AES output (§5.2.2), which NUL-terminated text cannot carry',
  },
  classicCommands: { ok: true },
} as const satisfies Record<string, Reach>;
