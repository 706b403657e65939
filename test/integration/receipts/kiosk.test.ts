import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEvents, startTestDaemon } from '../../helpers/daemon.js';

/**
 * An unattended terminal (kiosk) on a real daemon: it asks the printer's status before a sale
 * starts and refuses the sale when the printer cannot print, unless the request declines the
 * receipt; a receipt the printer cannot vouch for undoes the sale (nobody is there to ask).
 */
let t: Awaited<ReturnType<typeof startTestDaemon>>;
beforeAll(async () => {
  t = await startTestDaemon({ env: { OMNIPOS_TERMINAL__MODE: 'unattended' } });
});
afterAll(async () => {
  await t?.stop();
});

async function post(body: Record<string, unknown>): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await request(`${t.apiUrl}/v1/payments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> };
}

async function until(id: number, states: string[]): Promise<{ state: string; data: Record<string, unknown> }> {
  for (let i = 0; i < 600; i++) {
    const e = t.journal.get(id)!;
    if (states.includes(e.state) && !t.busy) return { state: e.state, data: e.data };
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`payment ${id} never reached ${states.join('|')}: ${JSON.stringify(t.journal.get(id))}`);
}

describe('kiosk: the paper check before the card is read, and "receipt": false', () => {
  it.each([
    ['paper out', () => t.printer.loadPaper(0), 'paper-out'],
    ['cover open', () => t.printer.setFaults({ coverOpen: true }), 'cover-open'],
    ['offline', () => t.printer.setFaults({ offline: true }), 'offline'],
  ] as const)(
    '%s: the sale is refused before any journal row or card read, with a clear error',
    async (_what, fault, reason) => {
      const rows = t.journal.list().length;
      fault();
      try {
        for (const body of [
          { amount: 1010, method: 'credit' },
          { amount: 1010, method: 'wallet-qr' },
        ]) {
          const r = await post(body);
          expect(r.status, JSON.stringify(r.body)).toBe(503);
          expect(r.body).toMatchObject({ error: { code: 'RECEIPT_PRINTER_NOT_READY' } });
          expect(String((r.body.error as { message: string }).message)).toContain(`(${reason})`);
          expect(String((r.body.error as { message: string }).message)).toContain('"receipt": false');
        }
        expect(t.journal.list().length).toBe(rows);
      } finally {
        t.printer.setFaults({ coverOpen: false, offline: false });
        t.printer.loadPaper();
      }
    },
  );

  it('paper out and "receipt": false: the sale proceeds, records skipped, prints nothing, and is confirmed', async () => {
    const printer = t.printer;
    printer.loadPaper(0);
    try {
      const cut = printer.receipts.length;
      const r = await post({ amount: 1010, method: 'credit', receipt: false });
      expect(r.status, JSON.stringify(r.body)).toBe(202);
      const done = await until(r.body.id as number, ['confirmed', 'undone', 'failed', 'aborted', 'declined']);
      expect(done).toMatchObject({ state: 'confirmed', data: { receipt: 'skipped', request: { receipt: false } } });
      expect(t.journal.transitions(r.body.id as number).map((x) => x.to)).not.toContain('printing');
      expect(printer.receipts.length).toBe(cut);
      expect(printer.pending).toBe(0);
    } finally {
      printer.loadPaper();
    }
  });

  it('the paper runs out mid-receipt: printing, then undone (no cashier to ask), no question asked', async () => {
    const printer = t.printer;
    printer.loadPaper(3);
    const stream = await openEvents(t.apiUrl, t.token);
    await stream.next();
    try {
      const r = await post({ amount: 1010, method: 'credit' });
      expect(r.status, JSON.stringify(r.body)).toBe(202);
      const done = await until(r.body.id as number, ['undone', 'undoing', 'confirmed', 'confirming']);
      expect(done.state).toMatch(/^undo/);
      expect(done.data.reason).toBe('nobody can tell whether the receipt came out');
      const trail = t.journal.transitions(r.body.id as number).map((x) => x.to);
      expect(trail.slice(trail.indexOf('approved'), trail.indexOf('approved') + 3)).toEqual([
        'approved',
        'printing',
        'undoing',
      ]);
      // Every event of this sale up to its undo, off the stream: states, and no receipt question.
      const seen: string[] = [];
      while (!seen.includes('state:undoing')) {
        const e = await stream.next(5000);
        if ('comment' in e) continue;
        const d = JSON.parse(e.data) as { type: string; id: number; state?: string };
        if (d.id === r.body.id) seen.push(`${d.type}${d.state ? `:${d.state}` : ''}`);
      }
      expect(seen).toContain('state:printing');
      expect(seen).not.toContain('receipt-question');
    } finally {
      stream.close();
      printer.loadPaper();
    }
  });
});
