import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'undici';
import { expect } from 'vitest';
import { startTestDaemon, type TestDaemonOptions } from './daemon.js';

export type TestDaemon = Awaited<ReturnType<typeof startTestDaemon>>;
type Op = { responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }> };

export interface Call {
  method?: 'GET' | 'POST' | 'DELETE';
  body?: string | undefined;
  type?: string;
  token?: string | null;
  headers?: Record<string, string>;
}

/**
 * Fails unless the OpenAPI document `doc` declares a JSON answer `status` for `method route`. The body's fit to that
 * schema is the contract hook's (test/setup/contract.ts), on every answer.
 */
export function expectDeclared(
  doc: Record<string, unknown>,
  method: string,
  route: string,
  status: number,
  body: string,
): void {
  const op = (doc.paths as Record<string, Record<string, Op>>)[route]?.[method.toLowerCase()];
  const schema = op?.responses[String(status)]?.content?.['application/json']?.schema;
  expect(schema, `${method} ${route} answered ${status}, which the document does not declare: ${body}`).toBeDefined();
}

/**
 * A real daemon over loopback and its OpenAPI document (test/integration/api/coverage.test.ts): every answer is
 * checked against the schema the document declares for its route and status, and recorded in
 * `seen` (route × status), so the test can tell which declared answers nobody produced.
 */
export function documentedApi(options: TestDaemonOptions = {}) {
  let t: TestDaemon;
  let doc: Record<string, unknown>;
  const paths = () => doc.paths as Record<string, Record<string, Op>>;
  const seen = new Set<string>();

  /** Starts the daemon with `options` (those given to `documentedApi` when absent). */
  async function start(startOptions: TestDaemonOptions = options): Promise<TestDaemon> {
    t = await startTestDaemon(startOptions);
    doc = (await request(`${t.apiUrl}/v1/openapi.json`).then((r) => r.body.json())) as Record<string, unknown>;
    return t;
  }

  /** Calls the daemon, checks the answer against the documented schema, and records (route, status). */
  async function hit(
    route: string,
    url: string,
    c: Call = {},
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    const method = c.method ?? 'GET';
    const headers: Record<string, string> = { ...(c.headers ?? {}) };
    if (c.token !== null) headers.authorization = `Bearer ${c.token ?? t.token}`;
    if (c.body !== undefined) headers['content-type'] = c.type ?? 'application/json';
    const res = await request(`${t.apiUrl}${url}`, {
      method,
      headers,
      ...(c.body !== undefined ? { body: c.body } : {}),
    });
    const body = (await res.body.json()) as Record<string, unknown>;
    expectDeclared(doc, method, route, res.statusCode, JSON.stringify(body));
    seen.add(`${method} ${route} ${res.statusCode}`);
    return { status: res.statusCode, body };
  }

  async function until(id: number, pred: (p: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
    for (let i = 0; i < 600; i++) {
      const p = (await request(`${t.apiUrl}/v1/payments/${id}`, {
        headers: { authorization: `Bearer ${t.token}` },
      }).then((r) => r.body.json())) as Record<string, unknown>;
      if (pred(p)) return p;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`payment ${id} never got there: ${JSON.stringify(t.journal.get(id))}`);
  }

  /** Until no payment holds the terminal: health's busy follows the one lock card, wallet QR and Pix sales and voids share. */
  async function idle(): Promise<void> {
    const busy = async (): Promise<boolean> =>
      (
        (await request(`${t.apiUrl}/v1/health`, { headers: { authorization: `Bearer ${t.token}` } }).then((r) =>
          r.body.json(),
        )) as { busy: boolean }
      ).busy;
    for (let i = 0; i < 600 && (await busy()); i++) await new Promise((r) => setTimeout(r, 25));
  }

  /**
   * The answers the document declares for `route` (every method) that no `hit` produced: an operation's own
   * test asserts none is left, and coverage.test.ts then leaves that route to it (it reads this call's route).
   */
  function unproduced(route: string): string[] {
    return Object.entries(paths()[route] ?? {}).flatMap(([m, op]) =>
      Object.keys(op.responses)
        .map((s) => `${m.toUpperCase()} ${route} ${s}`)
        .filter((d) => !seen.has(d)),
    );
  }

  return { start, stop: async () => await t?.stop(), hit, until, idle, paths, seen, unproduced, daemon: () => t };
}

/**
 * The routes whose own test asserts `expect(api.unproduced(route)).toEqual([])`: it produced every answer the
 * document declares for them, so coverage.test.ts leaves them to it (a new operation needs no line there).
 */
export function ownTestRoutes(): Set<string> {
  const root = new URL('../', import.meta.url);
  const claim = /expect\(\w+\.unproduced\('([^']+)'\)\)\.toEqual\(\[\]\)/g;
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.test.ts'));
  return new Set(files.flatMap((f) => [...readFileSync(new URL(f, root), 'utf8').matchAll(claim)].map((m) => m[1]!)));
}
