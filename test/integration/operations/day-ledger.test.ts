import { readFileSync } from 'node:fs';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/run.js';
import type { LedgerReport } from '../../../src/sandbox/ledger.js';
import { TEST_CARDS } from '../../../tables/test-cards.js';
import { startTestDaemon } from '../../helpers/daemon.js';

let t: Awaited<ReturnType<typeof startTestDaemon>>;
beforeAll(async () => {
  t = await startTestDaemon();
});
afterAll(async () => {
  await t?.stop();
});

async function call(method: 'GET' | 'POST', p: string, body?: unknown) {
  const res = await request(`${t.apiUrl}${p}`, {
    method,
    headers: {
      authorization: `Bearer ${t.token}`,
      // Closing the day needs a supervisor (issue 12): the daemon's supervisor token.
      ...(p.startsWith('/v1/day/close')
        ? {
            'x-supervisor-token': readFileSync(path.join(t.config.stateDir, 'supervisor-token'), 'utf8').trim(),
          }
        : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.body.text();
  return { status: res.statusCode, body: text ? JSON.parse(text) : undefined };
}

async function waitFor<T>(what: string, f: () => Promise<T | undefined>, tries = 400): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const v = await f();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`never: ${what}`);
}

const until = (id: number, statuses: string[]) =>
  waitFor(`payment ${id} in ${statuses.join('|')}`, async () => {
    const r = await call('GET', `/v1/payments/${id}`);
    return statuses.includes(r.body.status) ? r.body : undefined;
  });
const idle = () =>
  waitFor('the pinpad free', async () => ((await call('GET', '/v1/health')).body.busy ? undefined : true));

describe("the day's report against the sandbox ledger, through a real daemon", () => {
  it('a day of mixed traffic (20 card sales: confirmed, confirmed by the cash register, undone, declined; a partial and a whole card-present void; a wallet QR sale; a Pix sale) adds up to what the host holds', async () => {
    const expected = { declined: 0, undone: 0, confirmed: 0 };
    const confirmedIds: number[] = [];
    for (let i = 0; i < 20; i++) {
      // Cents 11: the sandbox declines; cents 10: it approves (docs/sandbox.md, "Outcomes by the amount's cents").
      const declined = i % 5 === 3;
      const amount = 1000 + i * 100 + (declined ? 11 : 10);
      const ecr = i % 4 === 0;
      const created = await call('POST', '/v1/payments', {
        amount,
        method: 'credit',
        confirmation: ecr ? 'ecr' : 'auto',
      });
      expect(created.status, JSON.stringify(created.body)).toBe(202);
      if (declined) {
        expect((await until(created.body.id, ['declined', 'failed', 'confirmed'])).status).toBe('declined');
        expected.declined++;
      } else if (ecr) {
        await until(created.body.id, ['approved']);
        const action = i % 8 === 0 ? 'undo' : 'confirm';
        expect((await call('POST', `/v1/payments/${created.body.id}/${action}`)).status).toBe(200);
        if (action === 'undo') expected.undone++;
        else expected.confirmed++;
      } else {
        expect((await until(created.body.id, ['confirmed', 'failed', 'declined'])).status).toBe('confirmed');
        expected.confirmed++;
        confirmedIds.push(created.body.id);
      }
      await idle();
    }
    // Two card-present voids authorized by the supervisor: a partial one and a whole one.
    const supervisor = readFileSync(path.join(t.config.stateDir, 'supervisor-token'), 'utf8').trim();
    for (const [saleId, amount] of [
      [confirmedIds[0]!, 500],
      [confirmedIds[1]!, undefined],
    ] as const) {
      const v = await request(`${t.apiUrl}/v1/payments/${saleId}/void`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${t.token}`,
          'x-supervisor-token': supervisor,
          'content-type': 'application/json',
        },
        body: JSON.stringify(amount ? { amount } : {}),
      });
      const body = (await v.body.json()) as { id: number };
      expect(v.statusCode, JSON.stringify(body)).toBe(202);
      await waitFor(`void ${body.id} approved`, async () =>
        (await call('GET', `/v1/voids/${body.id}`)).body.status === 'approved' ? true : undefined,
      );
      await idle();
    }
    // A wallet pays the terminal's QR code.
    const qr = await call('POST', '/v1/payments', { amount: 2610, method: 'wallet-qr', qrModality: 'credit' });
    expect(qr.status).toBe(202);
    const card = TEST_CARDS[0]!;
    const paid = await runCli(
      [
        'wallet',
        'pay',
        qr.body.qrCode,
        '--card',
        card.pan,
        '--cvv',
        '123',
        '--exp',
        `${card.expiry.slice(2)}${card.expiry.slice(0, 2)}`,
        '--name',
        'TESTE',
        '--document',
        '52998224725',
      ],
      {
        out: () => undefined,
        err: (s) => console.log(s),
        env: {
          OMNIPOS_STATE_DIR: t.config.stateDir,
          OMNIPOS_ACQUIRER__WALLET_URL: t.sandbox.urls.wallet,
        },
      },
    );
    expect(paid).toBe(0);
    expect((await until(qr.body.id, ['confirmed', 'failed', 'cancelled'])).status).toBe('confirmed');
    expected.confirmed++;
    // A Pix sale, paid at the sandbox.
    const pix = await call('POST', '/v1/payments', {
      amount: 1800,
      method: 'pix',
      payer: { name: 'Maria da Silva', document: '529.982.247-25' },
    });
    expect(pix.status).toBe(202);
    await (await request(`${t.sandbox.url}/sandbox/pix/${pix.body.paymentId}/pay`, { method: 'POST' })).body.text();
    expect((await until(pix.body.id, ['confirmed', 'failed', 'cancelled'])).status).toBe('confirmed');
    expected.confirmed++;
    // Every confirmation and undo delivered.
    await waitFor(
      'the outbox drained',
      async () => ((await call('GET', '/v1/health')).body.outbox.pending === 0 ? true : undefined),
      800,
    );

    const report = (await call('GET', '/v1/day/report')).body;
    const ledger = (await (await request(`${t.sandbox.url}/sandbox/ledger`)).body.json()) as LedgerReport;
    // Line by line: what each payment still charges the customer, as the host's ledger says.
    const hostCharged = new Map<string, number>(
      [...ledger.sales, ...ledger.ecommerce].map((s) => [s.merchantOrderId, s.charged]),
    );
    const lines = report.lines as {
      merchantOrderId: string;
      charged: number;
      kind: string;
      outcome: string;
      voidOf?: string;
    }[];
    expect(lines).toHaveLength(24);
    // A sale's line plus its voids' lines (negative) is what the host still charges for it.
    const charged = new Map<string, number>();
    for (const line of lines) {
      const sale = line.kind === 'void' ? (line.voidOf as string) : line.merchantOrderId;
      charged.set(sale, (charged.get(sale) ?? 0) + line.charged);
    }
    for (const line of lines) {
      if (line.kind === 'void' || line.outcome === 'declined') continue;
      expect(hostCharged.get(line.merchantOrderId), `${line.kind} ${line.merchantOrderId} ${line.outcome}`).toBe(
        charged.get(line.merchantOrderId),
      );
    }
    expect(report.counts).toMatchObject({ voids: 2 });
    expect(report.counts.byOutcome.voided).toBe(2);
    expect(report.totals.net).toBe(ledger.totals.charged + ledger.totals.ecommerceCharged);
    expect(report.totals.net).toBeGreaterThan(0);
    expect(report.counts.byOutcome).toMatchObject({
      confirmed: expected.confirmed,
      declined: expected.declined,
      undone: expected.undone,
    });
    expect(report.counts.sales).toBe(22);
    expect(report.totals.voidsAmount).toBe(
      500 +
        lines.find(
          (l) =>
            l.kind !== 'void' &&
            l.merchantOrderId === lines.find((v) => v.kind === 'void' && v.charged !== -500)?.voidOf,
        )!.charged,
    );
    expect(report.counts.inProgress).toBe(0);
    // Totals by method add up to the net; the QR and Pix sales sit under their own methods.
    const byMethod = report.totals.byMethod as Record<string, { net: number; sales: number }>;
    expect(Object.values(byMethod).reduce((a, g) => a + g.net, 0)).toBe(report.totals.net);
    expect(byMethod['wallet-qr']).toMatchObject({ sales: 1, net: 2610 });
    expect(byMethod.pix).toMatchObject({ sales: 1, net: 1800 });
    expect(Object.values(report.totals.byBrand as Record<string, { net: number }>).reduce((a, g) => a + g.net, 0)).toBe(
      report.totals.net,
    );
    expect(Object.keys(report.totals.byBrand)).toContain(String(card.brandId));
    console.log(
      `day ${report.date}: ${report.lines.length} lines, net ${report.totals.net} cents = ledger ${ledger.totals.charged} + ${ledger.totals.ecommerceCharged}; outcomes ${JSON.stringify(report.counts.byOutcome)}`,
    );

    // The CLI reads the same day from the database.
    let out = '';
    expect(
      await runCli(['day', 'report', '--json'], {
        out: (s) => (out += s),
        err: () => undefined,
        env: { OMNIPOS_STATE_DIR: t.config.stateDir },
      }),
    ).toBe(0);
    expect(JSON.parse(out).totals).toEqual(report.totals);

    // The close prints the report and archives it; closing again answers the archived close.
    const before = t.printer.receipts.length;
    const closed = await call('POST', '/v1/day/close');
    expect(closed.status).toBe(201);
    expect(closed.body).toMatchObject({ date: report.date, alreadyClosed: false, printOutcome: 'printed' });
    expect(closed.body.report.totals).toEqual(report.totals);
    const paper = t.daemon
      .virtualPrinter!.receipts.slice(before)
      .map((r) => r.text)
      .join('\n');
    expect(paper).toContain('FECHAMENTO DO DIA');
    expect(paper).toContain('AMBIENTE DE TESTE');
    expect(paper).toMatch(/LIQUIDO\s+R\$ [\d.]+,\d\d/);
    const again = await call('POST', '/v1/day/close', { date: report.date });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ alreadyClosed: true, closedAt: closed.body.closedAt });
    expect(t.printer.receipts.length).toBe(before + 1);
    const archived = (await call('GET', `/v1/day/report?date=${report.date}`)).body;
    expect(archived.closedAt).toBe(closed.body.closedAt);
    // The archive is immutable in the database itself.
    expect(() => t.daemon.db.prepare("UPDATE day_closes SET report = '{}'").run()).toThrow(/immutable/);
    expect((await call('GET', '/v1/day/report?date=2026-13-01')).body.error).toMatchObject({
      code: 'INVALID_FIELD',
      field: 'date',
    });
    expect((await call('POST', '/v1/day/close', { date: '2999-01-01' })).status).toBe(409);
  }, 240_000);
});
