/**
 * The commands of ABECS 2.20 this product drives, with their flags from the tables of §3.2 and
 * §3.3: `blocking` (waits for the cardholder; no response timeout, may send NTM), `abecs`
 * (PARID/PARLEN parameters, only for a pinpad recognised by secure OPN) and `obsolete`.
 * The secure channel and card commands add their rows here.
 */
export const PINPAD_COMMANDS = {
  OPN: { section: '3.2.1/3.2.2', blocking: false, abecs: false, obsolete: false },
  GIN: { section: '3.2.3', blocking: false, abecs: false, obsolete: true },
  GIX: { section: '3.2.4', blocking: false, abecs: true, obsolete: false },
  CLO: { section: '3.2.6', blocking: false, abecs: false, obsolete: false },
  CLX: { section: '3.2.7', blocking: false, abecs: true, obsolete: false },
  // The flag columns of §3.3's table are lost in the transcription; DEX ("Extended", not in BibComp,
  // §7.4 "novos comandos … Comandos Abecs") is taken as Abecs although its fields are fixed.
  DEX: { section: '3.3.4', blocking: false, abecs: true, obsolete: false },
  DSP: { section: '3.3.5', blocking: false, abecs: false, obsolete: false },
  GCD: { section: '3.3.8', blocking: true, abecs: true, obsolete: false },
  RMC: { section: '3.3.14', blocking: true, abecs: false, obsolete: false },
} as const satisfies Record<string, { section: string; blocking: boolean; abecs: boolean; obsolete: boolean }>;

export type PinpadCommandId = keyof typeof PINPAD_COMMANDS;

/** The notification "command" id (§2.3.3) and the id of answers to unknown commands (§2.3.4). */
export const NOTIFICATION_ID = 'NTM';
export const UNKNOWN_COMMAND_ID = 'ERR';
