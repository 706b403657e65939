import type { FaultSpec, SandboxContext } from './context.js';
import { invalidFields, Fields } from './http-kit.js';
import { isPublishedApiCode, isPublishedWalletCode } from './errors.js';
import { isRouteName, ROUTE_BASE } from './routes.js';
import { isWs15FaultRoute, WS15_FAULT_ROUTES } from './webservice15/faults.js';

/**
 * Faults per route name, kept in the database so a restart keeps them: the routes of the omni and JSON
 * hosts (routes.ts), and the webservice 1.5's messages (webservice15/faults.ts), which share the database.
 */
export class Faults {
  readonly #ctx: Pick<SandboxContext, 'db'>;

  constructor(ctx: Pick<SandboxContext, 'db'>, initial: Readonly<Record<string, FaultSpec>> = {}) {
    this.#ctx = ctx;
    for (const [route, spec] of Object.entries(initial)) this.set(route, spec);
  }

  /** Validates and stores a fault; throws a 400 Refusal naming the bad member. */
  set(route: string, spec: FaultSpec): void {
    const f = new Fields({ route, ...spec });
    if (isWs15FaultRoute(route)) {
      if (spec.error !== undefined)
        f.problems.push(`error: the webservice 1.5's refusals are its erro answers, not faults (${route})`);
    } else if (!isRouteName(route))
      f.problems.push(
        `route: unknown route ${route}; one of ${[...Object.keys(ROUTE_BASE), ...Object.keys(WS15_FAULT_ROUTES)].join(', ')}`,
      );
    else if (spec.error !== undefined) {
      const wallet = ROUTE_BASE[route] === 'wallet';
      const ok = wallet
        ? typeof spec.error === 'string' && isPublishedWalletCode(spec.error)
        : typeof spec.error === 'number' && isPublishedApiCode(spec.error);
      if (!ok)
        f.problems.push(
          `error: ${String(spec.error)} is not a published ${wallet ? 'wallet code ("422.002")' : 'API error number (309)'}`,
        );
    }
    f.int('errorStatus', { min: 400, max: 599, optional: true });
    f.bool('handled', { optional: true });
    f.int('latencyMs', { min: 0, max: 600_000, optional: true });
    f.int('status', { min: 500, max: 599, optional: true });
    f.string('reset', { oneOf: ['before', 'after'], optional: true });
    f.bool('drop', { optional: true });
    f.int('times', { min: 1, max: 1_000_000, optional: true });
    f.check();
    if (
      spec.latencyMs === undefined &&
      spec.status === undefined &&
      spec.reset === undefined &&
      !spec.drop &&
      spec.error === undefined
    ) {
      throw invalidFields(['fault: give latencyMs, status, reset, drop or error']);
    }
    this.#ctx.db
      .prepare(`INSERT INTO faults (route, spec) VALUES (?, ?) ON CONFLICT(route) DO UPDATE SET spec = excluded.spec`)
      .run(route, JSON.stringify({ ...spec, times: spec.times ?? 1 }));
  }

  clear(): void {
    this.#ctx.db.prepare(`DELETE FROM faults`).run();
  }

  list(): Record<string, FaultSpec> {
    const rows = this.#ctx.db.prepare(`SELECT route, spec FROM faults`).all() as { route: string; spec: string }[];
    return Object.fromEntries(rows.map((r) => [r.route, JSON.parse(r.spec) as FaultSpec]));
  }

  /** The fault for one request to `route`, counted down; undefined when none. */
  take(route: string): FaultSpec | undefined {
    const row = this.#ctx.db.prepare(`SELECT spec FROM faults WHERE route = ?`).get(route) as
      { spec: string } | undefined;
    if (!row) return undefined;
    const spec = JSON.parse(row.spec) as FaultSpec;
    const left = (spec.times ?? 1) - 1;
    if (left <= 0) this.#ctx.db.prepare(`DELETE FROM faults WHERE route = ?`).run(route);
    else
      this.#ctx.db
        .prepare(`UPDATE faults SET spec = ? WHERE route = ?`)
        .run(JSON.stringify({ ...spec, times: left }), route);
    return spec;
  }
}
