import { splitFleetTopic } from './topics.js';

/** One terminal as a watcher knows it from the retained topics. */
export interface TerminalView {
  prefix: string;
  online: boolean | null;
  health: string | null;
  busy: boolean | null;
  alarms: string[];
  tables: string | null;
  software: string | null;
  /** The last `day/<date>` per date. */
  days: Map<string, DayTotals>;
  at: string | null;
}

export interface DayTotals {
  date: string;
  closed: boolean;
  sales: number;
  net: number;
  salesAmount: number;
  voidsAmount: number;
}

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** Folds fleet messages (status and day) into one view per terminal. Ignores what it cannot read. */
export class FleetView {
  readonly terminals = new Map<string, TerminalView>();

  constructor(readonly root = 'omnipos') {}

  add(topic: string, payload: Uint8Array): void {
    const where = splitFleetTopic(topic, this.root);
    if (!where) return;
    let body: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(Buffer.from(payload).toString('utf8'));
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return;
      body = parsed as Record<string, unknown>;
    } catch {
      return;
    }
    const t = this.#terminal(where.prefix);
    if (where.leaf === 'status') {
      t.online = body.online === true;
      if (body.online === true) {
        t.health = typeof body.status === 'string' ? body.status : null;
        t.busy = body.busy === true;
        t.alarms = Array.isArray(body.alarms) ? body.alarms.map((a) => String((a as { code?: unknown }).code)) : [];
        t.tables =
          typeof (body.tables as { version?: unknown } | undefined)?.version === 'string'
            ? String((body.tables as { version: string }).version)
            : null;
        t.software = typeof body.software === 'string' ? body.software : null;
      }
      t.at = typeof body.at === 'string' ? body.at : t.at;
    } else if (where.leaf.startsWith('day/')) {
      const date = where.leaf.slice(4);
      const totals = (body.totals ?? {}) as Record<string, unknown>;
      const counts = (body.counts ?? {}) as Record<string, unknown>;
      t.days.set(date, {
        date,
        closed: body.closed === true,
        sales: num(counts.sales),
        net: num(totals.net),
        salesAmount: num(totals.salesAmount),
        voidsAmount: num(totals.voidsAmount),
      });
    }
  }

  /** The day's totals across the fleet, and per terminal. */
  day(date: string): {
    date: string;
    terminals: number;
    closed: number;
    sales: number;
    net: number;
    salesAmount: number;
    voidsAmount: number;
    byTerminal: (DayTotals & { terminal: string })[];
  } {
    const byTerminal = [...this.terminals.values()].flatMap((t) => {
      const d = t.days.get(date);
      return d ? [{ terminal: t.prefix, ...d }] : [];
    });
    const sum = (k: 'sales' | 'net' | 'salesAmount' | 'voidsAmount'): number =>
      byTerminal.reduce((s, d) => s + d[k], 0);
    return {
      date,
      terminals: byTerminal.length,
      closed: byTerminal.filter((d) => d.closed).length,
      sales: sum('sales'),
      net: sum('net'),
      salesAmount: sum('salesAmount'),
      voidsAmount: sum('voidsAmount'),
      byTerminal,
    };
  }

  /** A plain-text table, one line per terminal. */
  table(today: string): string {
    const rows = [['TERMINAL', 'ONLINE', 'HEALTH', 'BUSY', 'ALARMS', 'SALES TODAY', 'NET TODAY', 'TABLES', 'SOFTWARE']];
    for (const t of [...this.terminals.values()].sort((a, b) => a.prefix.localeCompare(b.prefix))) {
      const d = t.days.get(today);
      rows.push([
        t.prefix.slice(this.root.length + 1),
        t.online === null ? '?' : t.online ? 'yes' : 'NO',
        t.online ? (t.health ?? '?') : '-',
        t.online ? (t.busy ? 'yes' : 'no') : '-',
        t.alarms.length === 0 ? '-' : t.alarms.join(','),
        d ? String(d.sales) : '-',
        d ? (d.net / 100).toFixed(2) : '-',
        t.tables ?? '-',
        t.software ?? '-',
      ]);
    }
    const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
    return (
      rows
        .map((r) =>
          r
            .map((c, i) => c.padEnd(widths[i] ?? 0))
            .join('  ')
            .trimEnd(),
        )
        .join('\n') + '\n'
    );
  }

  #terminal(prefix: string): TerminalView {
    let t = this.terminals.get(prefix);
    if (!t) {
      t = {
        prefix,
        online: null,
        health: null,
        busy: null,
        alarms: [],
        tables: null,
        software: null,
        days: new Map(),
        at: null,
      };
      this.terminals.set(prefix, t);
    }
    return t;
  }
}
