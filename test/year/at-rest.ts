// The year run's check that retention pruned nothing that may still move money (issue 35): every
// payment in an archive file is at rest, and no payment still in the database that may move money
// (a void running) names an archived sale. "At rest" is written here from the journal's states, apart
// from the retention's own rule (src/operations/retention/settled.ts), so the two check each other.
import Database from '../../src/store/sqlite.js';
import { readArchivedDay } from '../../src/operations/index.js';
import { listDayFiles } from '../../src/store/index.js';

/** The states after which a payment moves no money and nobody must act (needs-refund and dead-letter: someone must). */
const AT_REST: Readonly<Record<string, ReadonlySet<string>>> = {
  sale: new Set(['confirmed', 'undone', 'declined', 'aborted', 'failed']),
  qr: new Set(['confirmed', 'undone', 'cancelled', 'expired', 'failed']),
  pix: new Set(['confirmed', 'cancelled', 'refunded', 'failed']),
  void: new Set(['confirmed', 'undone', 'declined', 'refused', 'aborted', 'failed', 'expired']),
};

const atRest = (kind: string, state: string): boolean => AT_REST[kind]?.has(state) ?? false;

interface SaleRef {
  id?: number;
  merchantOrderId?: string;
}

/** What was archived though it may still move money, one line each (none: the retention held). */
export function movingPruned(archiveDir: string, dbFile: string): string[] {
  const problems: string[] = [];
  const archivedIds = new Set<number>();
  const archivedOrders = new Set<string>();
  for (const f of listDayFiles(archiveDir)) {
    for (const p of readArchivedDay(archiveDir, f.date)?.payments ?? []) {
      const { id, kind, state, merchantOrderId } = p.entry;
      archivedIds.add(id);
      archivedOrders.add(merchantOrderId);
      if (!atRest(kind, state)) problems.push(`retention: ${kind} ${merchantOrderId} archived in ${state}`);
      for (const t of p.outbox)
        if (t.doneAt === null || t.deadLetterReason !== null)
          problems.push(`retention: ${kind} ${merchantOrderId} archived with ${t.operation} not done`);
    }
  }
  const db = new Database(dbFile, { readonly: true });
  try {
    const rows = db
      .prepare("SELECT kind, state, merchant_order_id AS o, data FROM journal WHERE kind = 'void'")
      .all() as {
      kind: string;
      state: string;
      o: string;
      data: string;
    }[];
    for (const r of rows) {
      if (atRest(r.kind, r.state)) continue;
      const sale = (JSON.parse(r.data) as { sale?: SaleRef }).sale ?? {};
      if (
        (sale.id !== undefined && archivedIds.has(sale.id)) ||
        (sale.merchantOrderId && archivedOrders.has(sale.merchantOrderId))
      )
        problems.push(`retention: void ${r.o} in ${r.state} names an archived sale`);
    }
  } finally {
    db.close();
  }
  return problems;
}
