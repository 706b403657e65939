import type { TableRecord } from './records/index.js';
import type { AcquirerFlags, EmvEntry, Issuer, MerchantInfo, Parameters, Product } from './schema/tables.js';
import { BIN_FLAGS, type BinFlag } from './schema/flags.js';

/** A `Bins` row as stored: bounds as received, ids, type, and its Boolean members as a bitmask over BIN_FLAGS. */
export interface BinRow {
  readonly InitialBin: string;
  readonly FinalBin: string;
  readonly ProductId: number;
  readonly IssuerId: number;
  /** 0 specific, 1 generic. */
  readonly Type: 0 | 1;
  /** Bit i = BIN_FLAGS[i]. */
  readonly flags: number;
}

/** A validated initialization: every table of the acquirer's answer, ids checked against each other. */
export interface InitializationTables {
  /** `InitializationVersion`, as its digits (up to 13). */
  readonly version: string;
  readonly merchantId: string;
  readonly terminalId: string;
  readonly acquirer: AcquirerFlags;
  readonly merchant: MerchantInfo | undefined;
  readonly bins: readonly BinRow[];
  readonly products: readonly Product[];
  readonly emv: readonly EmvEntry[];
  /** `Parameters[0]`: the terminal-wide flags (the answer carries a one-element array). */
  readonly parameters: Parameters;
  readonly issuers: readonly Issuer[];
  /** The host's `AidParameters` and `PublicKeys` strings, kept as received. */
  readonly aidParameters: string;
  readonly publicKeys: string;
  /** §4.1.1 AID records decoded from `AidParameters`. */
  readonly aidRecords: readonly TableRecord[];
  /** §4.1.2 CA key and §4.1.3 revoked-certificate records decoded from `PublicKeys`. */
  readonly keyRecords: readonly TableRecord[];
}

const BIT: ReadonlyMap<string, number> = new Map(BIN_FLAGS.map((f, i) => [f, 1 << i]));

/** The bitmask of a row's Boolean members (BIN_FLAGS order; 31 flags fit a positive 32-bit integer). */
export function binFlagMask(row: Readonly<Record<string, unknown>>): number {
  let mask = 0;
  for (let i = 0; i < BIN_FLAGS.length; i++) if (row[BIN_FLAGS[i]!] === true) mask |= 1 << i;
  return mask;
}

/** Whether a `Bins` row has a flag. */
export function binHas(row: Pick<BinRow, 'flags'>, flag: BinFlag): boolean {
  return (row.flags & BIT.get(flag)!) !== 0;
}

/** A row's flags as the acquirer's members (for display and for `tables bin --json`). */
export function binFlagsObject(row: Pick<BinRow, 'flags'>): Record<BinFlag, boolean> {
  return Object.fromEntries(BIN_FLAGS.map((f) => [f, binHas(row, f)])) as Record<BinFlag, boolean>;
}
