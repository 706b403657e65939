import type { BusinessDate } from './business-day.js';
import { CHARGED_OUTCOMES, type DayLine, type DayOutcome } from './lines.js';

/** Sales and voids of one group (a brand, a product, a method), cents. */
export interface DayGroup {
  /** Sales that left the customer charged (confirmed, awaiting a decision, needs-refund, dead letter). */
  sales: number;
  salesAmount: number;
  /** Voids that took effect. */
  voids: number;
  voidsAmount: number;
  /** salesAmount − voidsAmount. */
  net: number;
}

/** The day's report: every line, totals by brand, product and method, counts by outcome and state. */
export interface DayReport {
  date: BusinessDate;
  /** The instants the business day spans, [from, to), ISO UTC. */
  from: string;
  to: string;
  /** When this report was made (host time). */
  generatedAt: string;
  /** The close this report is, when the day was closed. */
  closedAt: string | null;
  /**
   * A closed day's payments opened after its close (same business day, host time), and those the close
   * counted in another outcome than they ended in: the close's figures stay as they were; these are
   * accounted here, beside them, with their own lines and net.
   */
  afterClose?: {
    since: string;
    sales: number;
    voids: number;
    /** Charged sales minus voids that took effect after the close, plus what the settled lines moved. */
    net: number;
    lines: DayLine[];
    /**
     * Payments of the day opened before the close that the close counted in another outcome (running,
     * or being undone, when it was made), as they ended: `net` carries the difference in what they charge.
     */
    settled?: DayLine[];
  };
  counts: {
    sales: number;
    voids: number;
    /** How many lines ended in each outcome. */
    byOutcome: Partial<Record<DayOutcome, number>>;
    /** `kind:state` → how many (the engines' own final states). */
    byState: Record<string, number>;
    /** Lines not final yet (a sale or void still running when the report was made). */
    inProgress: number;
    /**
     * The lines awaiting the host's close (`awaitingHostClose`, src/engine/awaiting-host-close.ts):
     * wallet QR sales whose code ended unpaid, wallet QR voids whose cancellation code ended not
     * applied; absent from a day archived before this count existed.
     */
    awaitingHostClose?: number;
  };
  totals: {
    /** Cents the customer stays charged by, over the day: charged sales − voids that took effect. */
    net: number;
    salesAmount: number;
    voidsAmount: number;
    undoneAmount: number;
    refundedAmount: number;
    declinedAmount: number;
    needsRefundAmount: number;
    byMethod: Record<string, DayGroup>;
    byBrand: Record<string, DayGroup>;
    byProduct: Record<string, DayGroup>;
    /** The card-not-present sales by the host they went to; present when the day has one. */
    byBackend?: Record<string, DayGroup>;
  };
  lines: DayLine[];
  /**
   * Card-not-present pre-authorizations still held at the host uncaptured when the report was made,
   * of any day (each is on its own day's lines too): capture or void them before their deadline.
   */
  preAuthorizationsOpen?: { id: number; merchantOrderId: string; amount: number; state: string; createdAt: string }[];
}

function group(map: Record<string, DayGroup>, key: string): DayGroup {
  map[key] ??= { sales: 0, salesAmount: 0, voids: 0, voidsAmount: 0, net: 0 };
  return map[key];
}

function add(map: Record<string, DayGroup>, key: string, line: DayLine): void {
  const g = group(map, key);
  if (line.kind === 'void') {
    g.voids++;
    g.voidsAmount += line.amount;
  } else {
    g.sales++;
    g.salesAmount += line.amount;
  }
  g.net = g.salesAmount - g.voidsAmount;
}

/** Sorted keys, so the same day gives byte-identical JSON. */
function sorted<T>(map: Record<string, T>): Record<string, T> {
  return Object.fromEntries(
    Object.keys(map)
      .sort()
      .map((k) => [k, map[k] as T]),
  );
}

/** Adds up the lines of one business day. Pure: the same lines give the same report. */
export function buildDayReport(o: {
  date: BusinessDate;
  from: Date;
  to: Date;
  now: Date;
  lines: readonly DayLine[];
  closedAt?: Date;
}): DayReport {
  const byOutcome: Partial<Record<DayOutcome, number>> = {};
  const byState: Record<string, number> = {};
  const byMethod: Record<string, DayGroup> = {};
  const byBrand: Record<string, DayGroup> = {};
  const byProduct: Record<string, DayGroup> = {};
  const byBackend: Record<string, DayGroup> = {};
  const sum = { sales: 0, voids: 0, undone: 0, refunded: 0, declined: 0, needsRefund: 0 };
  let sales = 0;
  let voids = 0;
  let inProgress = 0;
  let awaitingHostClose = 0;
  for (const line of o.lines) {
    if (line.awaitingHostClose) awaitingHostClose++;
    byOutcome[line.outcome] = (byOutcome[line.outcome] ?? 0) + 1;
    byState[`${line.kind}:${line.state}`] = (byState[`${line.kind}:${line.state}`] ?? 0) + 1;
    if (line.outcome === 'in-progress') inProgress++;
    if (line.kind === 'void') voids++;
    else sales++;
    const counts = line.kind === 'void' ? line.outcome === 'voided' : CHARGED_OUTCOMES.has(line.outcome);
    if (counts) {
      add(byMethod, line.method, line);
      add(byBrand, line.brand, line);
      add(byProduct, line.product, line);
      if (line.backend !== undefined) add(byBackend, line.backend, line);
      if (line.kind === 'void') sum.voids += line.amount;
      else sum.sales += line.amount;
    }
    if (line.outcome === 'undone') sum.undone += line.amount;
    if (line.outcome === 'refunded') sum.refunded += line.amount;
    if (line.outcome === 'declined') sum.declined += line.amount;
    if (line.outcome === 'needs-refund') sum.needsRefund += line.amount;
  }
  return {
    date: o.date,
    from: o.from.toISOString(),
    to: o.to.toISOString(),
    generatedAt: o.now.toISOString(),
    closedAt: o.closedAt?.toISOString() ?? null,
    counts: {
      sales,
      voids,
      byOutcome: sorted(byOutcome as Record<string, number>),
      byState: sorted(byState),
      inProgress,
      awaitingHostClose,
    },
    totals: {
      net: sum.sales - sum.voids,
      salesAmount: sum.sales,
      voidsAmount: sum.voids,
      undoneAmount: sum.undone,
      refundedAmount: sum.refunded,
      declinedAmount: sum.declined,
      needsRefundAmount: sum.needsRefund,
      byMethod: sorted(byMethod),
      byBrand: sorted(byBrand),
      byProduct: sorted(byProduct),
      ...(Object.keys(byBackend).length > 0 ? { byBackend: sorted(byBackend) } : {}),
    },
    lines: [...o.lines],
  };
}
