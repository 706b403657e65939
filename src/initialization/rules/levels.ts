import {
  BIN_FLAGS,
  ISSUER_FLAGS,
  PARAMETER_FLAGS,
  type BinFlag,
  type IssuerFlag,
  type ParameterFlag,
} from '../schema/flags.js';
import { binHas, type BinRow } from '../model.js';
import type { Issuer, Parameters } from '../schema/tables.js';

/**
 * The three levels that carry the same flags: the terminal-wide `Parameters`, the card's
 * `Issuers` row and its `Bins` row (the last two unknown before the card is read).
 *
 * How they combine (decision, docs/decisions.md "Initialization tables"; the documents give each level's flag without a
 * precedence): a permission (`Allow…`) holds only if every level that carries it allows it; a
 * requirement or check (`Requires…`, `Check…`, `Restrict…`, `Interprets…`) applies if any level
 * sets it. The stricter level always wins.
 */
export interface Levels {
  parameters: Parameters;
  issuer?: Issuer | undefined;
  bin?: BinRow | undefined;
}

type Flag = string;
const PARAM = new Set<string>(PARAMETER_FLAGS);
const ISSUER = new Set<string>(ISSUER_FLAGS);
const BIN = new Set<string>(BIN_FLAGS);
const isParameterFlag = (flag: Flag): flag is ParameterFlag => PARAM.has(flag);
const isIssuerFlag = (flag: Flag): flag is IssuerFlag => ISSUER.has(flag);
const isBinFlag = (flag: Flag): flag is BinFlag => BIN.has(flag);

function values(levels: Levels, flag: Flag): boolean[] {
  const out: boolean[] = [];
  if (isParameterFlag(flag)) out.push(levels.parameters[flag] === true);
  if (levels.issuer && isIssuerFlag(flag)) out.push(levels.issuer[flag] === true);
  if (levels.bin && isBinFlag(flag)) out.push(binHas(levels.bin, flag));
  return out;
}

/** A permission: every level that carries the flag allows it (false when no level carries it). */
export function allowedByAll(levels: Levels, flag: Flag): boolean {
  const v = values(levels, flag);
  return v.length > 0 && v.every(Boolean);
}

/** A requirement: some level sets it. */
export function requiredByAny(levels: Levels, flag: Flag): boolean {
  return values(levels, flag).some(Boolean);
}
