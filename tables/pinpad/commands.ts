/**
 * The one table of the ABECS commands this product knows (ABECS 2.20, guilhermecabral05/abecs-rust
 * protocolo_abecs_2_20.md; the classic card commands also in protocolo_abecs_2_12.md), read by the
 * driver (drivers/pinpad) and the virtual pinpad (src/sim/pinpad), each with its own parsing code.
 * - `blocking`: waits for the cardholder; no response timeout, may send NTM (§2.2.2).
 * - `family`: `abecs` (PARID/PARLEN parameters, `command-params.ts`, PKTDATA up to 2049) or `classic`
 *   (fixed fields, `classic-layouts.ts` / `card-commands.ts`, PKTDATA up to 1024, §2.2.1, §3.1.3).
 * - `obsolete`: §3.1.2, never sent to a pinpad recognised by secure OPN.
 * - `access`: `any`; `secure` — reads a card, a PIN or a typed number: only for a pinpad recognised by
 *   secure OPN (§3.2.2); `secure-or-classic` — also sent to a pinpad that answers OPN as obsolete (the
 *   classic flow); `classic-only` — the obsolete card commands (§3.1.2).
 * - `session`: what the command needs of the session, or does to it (§3.2, §5.2, §6.3.2, §6.4.1):
 *   `opens` — OPN: accepted in any state, only ever sent in clear (§5.2.2 "Independentemente do estado
 *   da Comunicação Segura, o comando OPN (seguro ou clássico), somente pode ser enviado em claro"); it
 *   ends any session and a secure OPN opens a new one (§6.4.1); its answer comes in clear.
 *   `closes` — CLO, CLX: end the session; their answers come in clear (§5.2.2, §6.3.2).
 *   `secure` — an Abecs command: only inside a secure session, so a secure OPN first (§3.2.2, the
 *   obsolete answer: "não há Comunicação Segura e, por questão de compatibilidade, o SPE não poderá
 *   usar Comandos Abecs"); the product still sends EBX to a classic pinpad that has it (`access`).
 *   `clear` — DWK: refused inside a secure session (§3.2.5 "O modo PAN Criptografado não é aceito
 *   pelo pinpad se o SPE estiver utilizando o método Comunicação Segura", ST_INVCALL).
 *   `none` — a classic command: no OPN needed first (§6.4.1 "o comando OPN (clássico) é opcional…
 *   Caso o pinpad receba qualquer comando sem ter recebido previamente um OPN, ele deve antes efetuar
 *   internamente os processamentos equivalentes"); inside a secure session it travels encrypted like
 *   any other command (§5.2.2).
 * `blocking`, `obsolete` and `family` are the Obsoleto/Blocante/Abecs boxes of each chapter's command
 * table (§3.2 l. 2670, §3.3 l. 3915, §3.4 l. 5890, §3.5 l. 6773, §3.6 l. 7237, §3.7 l. 8290 of the
 * transcription), held to them by test/unit/tables/pinpad/commands.flags.test.ts: DEX is no Abecs
 * command although it says "Extended", DWK and GKY are obsolete, FNC does not block. DWK is also for a
 * pinpad that does not follow this specification only (§3.2.5 "só deve ser utilizado pelo SPE caso
 * este identifique que pinpad ainda não respeite esta especificação"), hence `classic-only`.
 */
export type CommandFamily = 'abecs' | 'classic';
export type CommandAccess = 'any' | 'secure' | 'secure-or-classic' | 'classic-only';
export type CommandSession = 'opens' | 'closes' | 'secure' | 'clear' | 'none';

export interface CommandRow {
  readonly section: string;
  readonly blocking: boolean;
  readonly family: CommandFamily;
  readonly obsolete: boolean;
  readonly access: CommandAccess;
  readonly session: CommandSession;
}

const row = (
  section: string,
  blocking: boolean,
  family: CommandFamily,
  obsolete: boolean,
  session: CommandSession,
  access: CommandAccess = 'any',
): CommandRow => ({
  section,
  blocking,
  family,
  obsolete,
  access,
  session,
});

export const COMMANDS = {
  // §3.2 control
  OPN: row('3.2.1/3.2.2', false, 'classic', false, 'opens'),
  GIN: row('3.2.3', false, 'classic', true, 'none'),
  GIX: row('3.2.4', false, 'abecs', false, 'secure'),
  DWK: row('3.2.5', false, 'classic', true, 'clear', 'classic-only'),
  CLO: row('3.2.6', false, 'classic', false, 'closes'),
  CLX: row('3.2.7', false, 'abecs', false, 'closes'),
  // §3.3 basic
  CEX: row('3.3.1', true, 'abecs', false, 'secure', 'secure'),
  CHP: row('3.3.2', true, 'classic', false, 'none', 'secure'),
  CKE: row('3.3.3', true, 'classic', true, 'none', 'classic-only'),
  DEX: row('3.3.4', false, 'classic', false, 'none'),
  DSP: row('3.3.5', false, 'classic', false, 'none'),
  EBX: row('3.3.6', false, 'abecs', false, 'secure', 'secure-or-classic'),
  ENB: row('3.3.7', false, 'classic', true, 'none', 'classic-only'),
  GCD: row('3.3.8', true, 'abecs', false, 'secure'),
  GDU: row('3.3.9', false, 'classic', true, 'none'),
  GKY: row('3.3.10', true, 'classic', true, 'none'),
  GPN: row('3.3.11', true, 'classic', false, 'none', 'secure-or-classic'),
  GTK: row('3.3.12', false, 'abecs', false, 'secure', 'secure'),
  MNU: row('3.3.13', true, 'abecs', false, 'secure'),
  RMC: row('3.3.14', true, 'classic', false, 'none'),
  // §3.4 multimedia
  MLI: row('3.4.1', false, 'abecs', false, 'secure'),
  MLR: row('3.4.2', false, 'abecs', false, 'secure'),
  MLE: row('3.4.3', false, 'abecs', false, 'secure'),
  DSI: row('3.4.6', false, 'abecs', false, 'secure'),
  // §3.5 EMV tables
  GTS: row('3.5.1', false, 'classic', true, 'none', 'classic-only'),
  TLI: row('3.5.2', false, 'classic', false, 'none', 'secure-or-classic'),
  TLR: row('3.5.3', false, 'classic', false, 'none', 'secure-or-classic'),
  TLE: row('3.5.4', false, 'classic', false, 'none', 'secure-or-classic'),
  // §3.6 classic card processing (obsolete; layouts in ABECS 2.12 §3.6)
  GCR: row('3.6.1', true, 'classic', true, 'none', 'classic-only'),
  CNG: row('3.6.2', false, 'classic', true, 'none', 'classic-only'),
  GOC: row('3.6.3', true, 'classic', true, 'none', 'classic-only'),
  FNC: row('3.6.4', false, 'classic', true, 'none', 'classic-only'),
  // §3.7 Abecs card processing; FCX blocks only when a contactless card must be shown again (§3.7.4 note 2)
  GCX: row('3.7.1', true, 'abecs', false, 'secure', 'secure'),
  GED: row('3.7.2', false, 'abecs', false, 'secure', 'secure'),
  GOX: row('3.7.3', true, 'abecs', false, 'secure', 'secure'),
  FCX: row('3.7.4', true, 'abecs', false, 'secure', 'secure'),
} as const satisfies Record<string, CommandRow>;

/** The row of `id`, or undefined for a command this table does not know. */
export function commandRow(id: string): CommandRow | undefined {
  return Object.hasOwn(COMMANDS, id) ? (COMMANDS as Record<string, CommandRow>)[id] : undefined;
}

/** The ids whose row satisfies `pred`. */
export function commandIds(pred: (r: CommandRow) => boolean): ReadonlySet<string> {
  return new Set(
    Object.entries(COMMANDS as Record<string, CommandRow>)
      .filter(([, r]) => pred(r))
      .map(([id]) => id),
  );
}

/** The commands that run whatever the session's state and set it themselves: OPN, CLO, CLX (`session`). */
export const SESSION_COMMAND_IDS: ReadonlySet<string> = commandIds(
  (r) => r.session === 'opens' || r.session === 'closes',
);

/** The fixed-field commands (PKTDATA at most 1024, §2.2.1). */
export const CLASSIC_COMMAND_IDS: ReadonlySet<string> = commandIds((r) => r.family === 'classic');
