import { readFileSync } from 'node:fs';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/run.js';
import { readArchivedDay } from '../../../src/operations/index.js';
import { startTestDaemon, type TestDaemon } from '../../helpers/daemon.js';

// Issue 35: the daemon's upkeep wired to its parts. A real daemon sells (the sale engine's receipt
// facts go into the archive), closes the day, archives it; the day's report (API) and the receipt
// (`omnipos day receipt`) come back from the file; health, /metrics and the fleet's status carry the disk.

let t: TestDaemon;
beforeAll(async () => {
  t = await startTestDaemon({ prefix: 'omnipos-retention-daemon-' });
});
afterAll(async () => {
  await t?.stop();
});

async function until(id: number, statuses: string[]): Promise<Record<string, unknown>> {
  for (let i = 0; i < 400; i++) {
    const r = await t.call('GET', `/v1/payments/${id}`);
    if (statuses.includes(r.body.status as string)) return r.body;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`payment ${id} never ${statuses.join('|')}`);
}

describe('the daemon archives a closed day and reads it back', () => {
  it('a card sale, the close, the archive: report and receipt from the file; the disk in health and /metrics', async () => {
    const sale = await t.call('POST', '/v1/payments', { amount: 4210, method: 'credit' });
    expect(sale.status, JSON.stringify(sale.body)).toBe(202);
    const done = await until(sale.body.id as number, ['confirmed']);
    const res = await request(`${t.apiUrl}/v1/day/close`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${t.token}`,
        'x-supervisor-token': readFileSync(path.join(t.stateDir, 'supervisor-token'), 'utf8').trim(),
      },
    });
    const closed = (await res.body.json()) as { date: string; report: { totals: { net: number } } };
    expect(res.statusCode).toBe(201);
    // Until the outbox delivered the confirmation the day is held; then it moves.
    const retention = t.daemon.operations.maintenance.retention;
    let out = retention.archiveDay(closed.date);
    for (let i = 0; i < 200 && !out.archived; i++) {
      await new Promise((r) => setTimeout(r, 25));
      out = retention.archiveDay(closed.date);
    }
    expect(out.archived).toBe(true);
    const day = readArchivedDay(path.join(t.stateDir, 'archive'), closed.date);
    expect(day?.payments[0]?.receipt).toMatchObject({ amount: 4210, paymentType: 'credit' });

    const report = await t.call('GET', `/v1/day/report?date=${closed.date}`);
    expect(report.body).toEqual(closed.report);

    let printed = '';
    const code = await runCli(['day', 'receipt', '--date', closed.date, String(done.merchantOrderId)], {
      out: (s) => (printed += s),
      err: (s) => (printed += s),
      env: { OMNIPOS_STATE_DIR: t.stateDir },
    });
    expect(code, printed).toBe(0);
    expect(printed).toContain('42,10');
    expect(printed).toMatch(/SEGUNDA VIA/);

    const health = await t.call('GET', '/v1/health');
    expect(health.body.disk).toMatchObject({ autoVacuum: 'incremental' });
    expect((health.body.disk as { dbBytes: number }).dbBytes).toBeGreaterThan(0);
    expect((health.body.disk as { archiveBytes: number }).archiveBytes).toBeGreaterThan(0);
    const metrics = await request(`${t.apiUrl}/metrics`, { headers: { authorization: `Bearer ${t.token}` } });
    const text = await metrics.body.text();
    expect(text).toMatch(/omnipos_disk_bytes\{part="database"\} \d+/);
    expect(text).toMatch(/omnipos_disk_bytes\{part="archive"\} [1-9]\d*/);
    expect(text).toContain('omnipos_disk_days_left');
  });
});
