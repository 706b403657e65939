import { OmniposError } from '../core/index.js';
import type { InitializationTables } from './model.js';
import type { TableRecord } from './records/index.js';
import { pinpadTableVersion } from './version.js';

/** CMD_LEN1 of TLR is N3: at most 999 characters of TLR_NREC plus records (ABECS v2.20 §3.5.3). */
export const TLR_MAX = 999;

/**
 * Packs §4.1 records into the data blocks of successive `TLR` commands (TLR_NREC N2 followed by
 * whole records, each at most 999 characters), in order, as many records per block as fit.
 */
export function tlrBlocks(records: readonly string[], max = TLR_MAX): string[] {
  const blocks: string[] = [];
  let batch: string[] = [];
  let size = 2;
  const flush = () => {
    if (batch.length) blocks.push(String(batch.length).padStart(2, '0') + batch.join(''));
    batch = [];
    size = 2;
  };
  for (const r of records) {
    if (r.length + 2 > max)
      throw new OmniposError(
        'INIT_RECORD_INVALID',
        `a ${r.length}-character record does not fit one TLR command (${max})`,
        { length: r.length },
      );
    if (size + r.length > max || batch.length === 99) flush();
    batch.push(r);
    size += r.length;
  }
  flush();
  return blocks;
}

/** What loading the pinpad takes: TLI with the network index and version, the TLR blocks, then TLE. */
export interface PinpadLoadPlan {
  /** TLI_ACQIDX: the network whose tables are replaced. */
  acquirerIndex: string;
  /** TLI_TABVER: the 10-character version (the last 10 digits of InitializationVersion). */
  tableVersion: string;
  /** The data of each TLR command, in order. */
  tlr: string[];
  /** True when the pinpad already holds this version: nothing to send. */
  skip: boolean;
}

/**
 * Plans the pinpad table load for the tables in force: AID records, then CA keys, then revoked
 * certificates, under the network index the records carry (all must carry the same one, or "00"
 * for merged CA keys); with merged CA keys the whole set goes under TLI_ACQIDX "00" (§4.2.1, §6.7.3). `pinpadVersion` is the version the pinpad reports for that network (GIX);
 * when it equals the tables' version the load is skipped. With no records at all (the host sent
 * none) the plan is empty and skipped: the pinpad keeps what it has.
 */
export function planPinpadLoad(
  tables: Pick<InitializationTables, 'version' | 'aidRecords' | 'keyRecords'>,
  pinpadVersion?: string,
): PinpadLoadPlan {
  const ordered: TableRecord[] = [
    ...tables.aidRecords,
    ...tables.keyRecords.filter((r) => r.kind === 'capk'),
    ...tables.keyRecords.filter((r) => r.kind === 'revoked'),
  ];
  const networks = new Set(ordered.map((r) => r.acquirer).filter((a) => a !== '00'));
  if (networks.size > 1)
    throw new OmniposError(
      'INIT_RECORD_INVALID',
      `the records name several networks (${[...networks].join(', ')}); one load covers one`,
      { networks: [...networks] },
    );
  // CA keys merged under TAB_ACQ "00" (§4.1.2) load only with unified management (§4.2.1, TLI_ACQIDX "00"):
  // under a network's TLI the pinpad discards every record of another TAB_ACQ, "00" included (§6.7.3).
  const merged = ordered.some((r) => r.acquirer === '00');
  const acquirerIndex = merged ? '00' : ([...networks][0] ?? '00');
  const tableVersion = pinpadTableVersion(tables.version);
  const empty = ordered.length === 0;
  return {
    acquirerIndex,
    tableVersion,
    tlr: empty ? [] : tlrBlocks(ordered.map((r) => r.raw)),
    skip: empty || pinpadVersion === tableVersion,
  };
}
