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
 * The flag columns of §3.2's table survive in the transcription (line 2670); those of §3.3–§3.7 are
 * lost: they are read from each section's layout (PARIDs or fixed fields) and text ("aguarda",
 * "obsoleto"). DEX ("Extended", §7.4 "Comandos Abecs") is taken as Abecs although its fields are fixed.
 */
export type CommandFamily = 'abecs' | 'classic';
export type CommandAccess = 'any' | 'secure' | 'secure-or-classic' | 'classic-only';

export interface CommandRow {
  readonly section: string;
  readonly blocking: boolean;
  readonly family: CommandFamily;
  readonly obsolete: boolean;
  readonly access: CommandAccess;
}

const row = (
  section: string,
  blocking: boolean,
  family: CommandFamily,
  obsolete: boolean,
  access: CommandAccess = 'any',
): CommandRow => ({
  section,
  blocking,
  family,
  obsolete,
  access,
});

export const COMMANDS = {
  // §3.2 control
  OPN: row('3.2.1/3.2.2', false, 'classic', false),
  GIN: row('3.2.3', false, 'classic', true),
  GIX: row('3.2.4', false, 'abecs', false),
  DWK: row('3.2.5', false, 'classic', false, 'secure'),
  CLO: row('3.2.6', false, 'classic', false),
  CLX: row('3.2.7', false, 'abecs', false),
  // §3.3 basic
  CEX: row('3.3.1', true, 'abecs', false, 'secure'),
  CHP: row('3.3.2', true, 'classic', false, 'secure'),
  CKE: row('3.3.3', true, 'classic', true, 'classic-only'),
  DEX: row('3.3.4', false, 'abecs', false),
  DSP: row('3.3.5', false, 'classic', false),
  EBX: row('3.3.6', false, 'abecs', false, 'secure-or-classic'),
  ENB: row('3.3.7', false, 'classic', true, 'classic-only'),
  GCD: row('3.3.8', true, 'abecs', false),
  GDU: row('3.3.9', false, 'classic', true),
  GKY: row('3.3.10', true, 'classic', false),
  GPN: row('3.3.11', true, 'classic', false, 'secure-or-classic'),
  GTK: row('3.3.12', false, 'abecs', false, 'secure'),
  MNU: row('3.3.13', true, 'abecs', false),
  RMC: row('3.3.14', true, 'classic', false),
  // §3.4 multimedia
  MLI: row('3.4.1', false, 'abecs', false),
  MLR: row('3.4.2', false, 'abecs', false),
  MLE: row('3.4.3', false, 'abecs', false),
  DSI: row('3.4.6', false, 'abecs', false),
  // §3.5 EMV tables
  GTS: row('3.5.1', false, 'classic', true, 'classic-only'),
  TLI: row('3.5.2', false, 'classic', false, 'secure-or-classic'),
  TLR: row('3.5.3', false, 'classic', false, 'secure-or-classic'),
  TLE: row('3.5.4', false, 'classic', false, 'secure-or-classic'),
  // §3.6 classic card processing (obsolete; layouts in ABECS 2.12 §3.6)
  GCR: row('3.6.1', true, 'classic', true, 'classic-only'),
  CNG: row('3.6.2', false, 'classic', true, 'classic-only'),
  GOC: row('3.6.3', true, 'classic', true, 'classic-only'),
  FNC: row('3.6.4', true, 'classic', true, 'classic-only'), // may wait for the card to be removed (2.12 §3.6.4)
  // §3.7 Abecs card processing; FCX blocks only when a contactless card must be shown again (§3.7.4 note 2)
  GCX: row('3.7.1', true, 'abecs', false, 'secure'),
  GED: row('3.7.2', false, 'abecs', false, 'secure'),
  GOX: row('3.7.3', true, 'abecs', false, 'secure'),
  FCX: row('3.7.4', true, 'abecs', false, 'secure'),
} as const satisfies Record<string, CommandRow>;

export type CommandId = keyof typeof COMMANDS;

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

/** The fixed-field commands (PKTDATA at most 1024, §2.2.1). */
export const CLASSIC_COMMAND_IDS: ReadonlySet<string> = commandIds((r) => r.family === 'classic');

/** A command id of the table (the driver's `CommandSpec.id`). */
export type PinpadCommandId = CommandId;

/** The notification "command" id (§2.3.3) and the id of answers to unknown commands (§2.3.4). */
export const NOTIFICATION_ID = 'NTM';
export const UNKNOWN_COMMAND_ID = 'ERR';
