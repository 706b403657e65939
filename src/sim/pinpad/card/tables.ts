import { sandboxAidParameters } from '../../../../tables/initialization/sandbox-tables.js';
import { decodeRecord, decodeRecords, type TableRecord } from '../../../emv/index.js';

/** A load in progress (TLI seen, TLE not yet): records kept apart so the tables in force survive a failed load (§6.7). */
interface PendingLoad {
  acquirer: string;
  version: string;
  records: TableRecord[];
}

/**
 * The virtual pinpad's EMV tables (§3.5, §4, §6.7): records and a 10-character version per network.
 * It leaves the factory holding the sandbox's AID records under version "0000000000" (no version,
 * §6.7.2), so a sale works before the first initialization and that initialization still loads.
 */
export class SimTables {
  private readonly byNetwork = new Map<string, { version: string; records: TableRecord[] }>();
  private pending: PendingLoad | undefined;

  constructor(factory = true) {
    if (!factory) return;
    try {
      const recs = decodeRecords(sandboxAidParameters(), 'AidParameters');
      for (const r of recs) this.store(r.acquirer, '0000000000', [r]);
    } catch {
      // factory tables are a convenience; none is also a valid pinpad
    }
  }

  private store(acquirer: string, version: string, records: TableRecord[]): void {
    const cur = this.byNetwork.get(acquirer);
    this.byNetwork.set(acquirer, { version, records: [...(cur?.records ?? []), ...records] });
  }

  /** TLI: starts a load (temporary records cleared); true when the version differs from the one in force. */
  begin(acquirer: string, version: string): boolean {
    this.pending = { acquirer, version, records: [] };
    const current = acquirer === '00' ? this.version('00') : this.byNetwork.get(acquirer)?.version;
    return current !== version;
  }

  /** TLR: false when no TLI came first. Records of another network or that do not decode are ignored (§6.7.3). */
  add(raw: string): boolean {
    const p = this.pending;
    if (!p) return false;
    let at = 0;
    while (at + 3 <= raw.length) {
      const len = Number(raw.slice(at, at + 3));
      if (!Number.isInteger(len) || len < 8) break;
      try {
        const r = decodeRecord(raw.slice(at, at + len), `TLR@${at}`);
        // §6.7.3: a record whose TAB_ACQ is not TLI_ACQIDX, under a load that is not "00", is discarded ("00" records too)
        if (p.acquirer === '00' || r.acquirer === p.acquirer) p.records.push(r);
      } catch {
        // an invalid record is simply ignored
      }
      at += len;
    }
    return true;
  }

  /** TLE: the load replaces the network's tables (all of them for "00"); false when no TLI came first. */
  commit(): boolean {
    const p = this.pending;
    if (!p) return false;
    this.pending = undefined;
    if (p.acquirer === '00') {
      this.byNetwork.clear();
      const nets = new Set(p.records.map((r) => r.acquirer));
      for (const n of nets)
        this.byNetwork.set(n, { version: p.version, records: p.records.filter((r) => r.acquirer === n) });
      this.byNetwork.set('00', { version: p.version, records: [] });
    } else this.byNetwork.set(p.acquirer, { version: p.version, records: p.records });
    return true;
  }

  /** Drops a load in progress (a reset; the link dropping does not: the pinpad keeps it until the next TLI). */
  abort(): void {
    this.pending = undefined;
  }

  /** PP_TABVERnn (§3.1.3.2): the version in force for a network; "00" is the general version. */
  version(acquirer: string): string | undefined {
    return this.byNetwork.get(acquirer)?.version;
  }

  /** Every network's version (for tests and the control port). */
  versions(): Record<string, string> {
    return Object.fromEntries([...this.byNetwork].map(([k, v]) => [k, v.version]));
  }

  /** The AID records in force whose AID the card's AID starts with (partial selection, EMV Book 1 12.3.1). */
  aidRecords(aid: string): TableRecord[] {
    const out: TableRecord[] = [];
    for (const { records } of this.byNetwork.values()) {
      for (const r of records) {
        if (r.kind !== 'aid') continue;
        const len = Number(r.fields.T1_AIDLEN) * 2;
        const tableAid = (r.fields.T1_AID ?? '').slice(0, len);
        if (tableAid.length > 0 && aid.startsWith(tableAid)) out.push(r);
      }
    }
    return out;
  }
}
