import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogger } from '../../helpers/capture-log.js';
import { supervisedDaemon } from '../../helpers/wallet-pay.js';

/**
 * Defect 13 of the contract, its "where is a sale after the close accounted": a sale taken after the
 * day's close is in that business day's report, under `afterClose`, the close's own figures unchanged
 * (before, the closed report was returned as it was, and the sale appeared in no report).
 */

let t: Awaited<ReturnType<typeof supervisedDaemon>>;
const { log } = captureLogger('info');
beforeAll(async () => {
  t = await supervisedDaemon(log);
}, 60_000);
afterAll(async () => {
  await t?.stop();
});

async function call(method: 'GET' | 'POST', p: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${t.apiUrl}${p}`, {
    method,
    headers: {
      authorization: `Bearer ${t.token}`,
      ...headers,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
}

async function confirmedSale(amount: number): Promise<number> {
  const c = await call('POST', '/v1/payments', { amount, method: 'credit' });
  const id = c.body.id as number;
  for (let i = 0; i < 800; i++) {
    if ((await call('GET', `/v1/payments/${id}`)).body.status === 'confirmed') return id;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`sale ${id} never confirmed`);
}

describe('a sale after the day is closed (defect 13)', () => {
  it("is accounted in the day's report under afterClose, the close's figures unchanged", async () => {
    await confirmedSale(1000);
    const closed = await call('POST', '/v1/day/close', undefined, { 'x-supervisor-token': t.supervisor });
    expect(closed.status).toBe(201);
    const before = (await call('GET', '/v1/day/report')).body;
    expect(before.afterClose).toBeUndefined();
    const late = await confirmedSale(2500);
    const report = (await call('GET', '/v1/day/report')).body as {
      totals: { net: number };
      counts: { sales: number };
      closedAt: string;
      afterClose?: { since: string; sales: number; net: number; lines: { id: number }[] };
    };
    expect(report.totals.net).toBe((before.totals as { net: number }).net);
    expect(report.counts.sales).toBe(1);
    expect(report.afterClose).toMatchObject({ since: report.closedAt, sales: 1, net: 2500 });
    expect(report.afterClose!.lines.map((l) => l.id)).toEqual([late]);
  }, 60_000);
});
