import { inflateSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiptReprint, receiptShow } from '../../../src/cli/receipt.js';
import type { CliContext } from '../../../src/cli/context.js';
import { startTestDaemon } from '../../helpers/daemon.js';

/**
 * Reprints over real loopback HTTP on a real daemon (embedded sandbox, virtual pinpad, virtual
 * printer behind the real ESC/POS driver): what a person reads on the paper the virtual printer
 * cut, the text, HTML and PNG views, and the CLI against the running daemon.
 */
let t: Awaited<ReturnType<typeof startTestDaemon>>;
beforeAll(async () => {
  t = await startTestDaemon();
});
afterAll(async () => {
  await t?.stop();
});

const auth = () => ({ authorization: `Bearer ${t.token}` });

async function api(
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<{ status: number; type: string; bytes: Buffer; json: () => Record<string, unknown> }> {
  const res = await request(`${t.apiUrl}${path}`, {
    method,
    headers: { ...auth(), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const bytes = Buffer.from(await res.body.arrayBuffer());
  return {
    status: res.statusCode,
    type: String(res.headers['content-type']),
    bytes,
    json: () => JSON.parse(bytes.toString('utf8')) as Record<string, unknown>,
  };
}

async function sale(body: Record<string, unknown>, final: string[]): Promise<Record<string, unknown>> {
  const created = await api('POST', '/v1/payments', body);
  expect(created.status, created.bytes.toString()).toBe(202);
  const id = created.json().id as number;
  for (let i = 0; i < 600; i++) {
    const p = (await api('GET', `/v1/payments/${id}`)).json();
    if (final.includes(p.status as string) && !t.busy) return p;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`payment ${id} never reached ${final.join('|')}: ${JSON.stringify(t.journal.get(id))}`);
}

function cli(): { ctx: CliContext; out: () => string } {
  let out = '';
  const port = new URL(t.apiUrl).port;
  return {
    ctx: {
      out: (s) => void (out += s),
      err: (s) => void (out += s),
      env: { OMNIPOS_STATE_DIR: t.config.stateDir, OMNIPOS_API__PORT: port },
    },
    out: () => out,
  };
}

describe('reprint of a receipt of the day, rebuilt from the journal', () => {
  it('the paper of a reprint reads as the first receipt plus "SEGUNDA VIA", accents and all, on the virtual printer', async () => {
    const printer = t.printer;
    const before = printer.receipts.length;
    const p = await sale({ amount: 2510, method: 'credit', installments: 3 }, ['confirmed']);
    expect(printer.receipts.length).toBe(before + 1);
    const first = printer.lastReceipt!.lines;
    const reprint = await api('POST', `/v1/payments/${String(p.id)}/receipt/print`);
    expect(reprint.json()).toEqual({
      id: p.id,
      merchantOrderId: p.merchantOrderId,
      copy: 'customer',
      result: 'printed',
    });
    expect(printer.receipts.length).toBe(before + 2);
    const again = printer.lastReceipt!.lines;
    expect(printer.unknown).toEqual([]);
    // The reprint is the first receipt with one line more under the copy's name.
    const mark = again.findIndex((l) => l.trim() === '*** SEGUNDA VIA (2a VIA) ***');
    expect(again[mark - 1]!.trim()).toBe('VIA CLIENTE');
    expect([...again.slice(0, mark), ...again.slice(mark + 1)]).toEqual([...first]);
    expect(first.some((l) => l.includes('SEGUNDA VIA'))).toBe(false);
    const text = again.join('\n');
    // Accents through the printer's code page, as a person reads them.
    expect(text).toContain('CRÉDITO PARCELADO LOJA');
    expect(text).toMatch(/AUTORIZAÇÃO +\w+/);
    expect(text).toMatch(/1ª PARCELA +R\$ 8,38/);
    expect(text).toContain(`PEDIDO`);
    expect(text).toContain(String(p.merchantOrderId));
    expect(text).toMatch(/CARTÃO +476173\*{6}0060/);
    expect(again[0]!.trim()).toBe('AMBIENTE DE TESTE - SEM VALOR');
    // The merchant's copy.
    expect(
      (await api('POST', `/v1/payments/${String(p.id)}/receipt/print`, { copy: 'merchant' })).json(),
    ).toMatchObject({ copy: 'merchant', result: 'printed' });
    expect(printer.lastReceipt!.text).toMatch(/VIA ESTABELECIMENTO\n *\*\*\* SEGUNDA VIA \(2a VIA\) \*\*\*/);
  });

  it('the text, HTML and PNG views say what the paper says, at 32, 42 and 48 columns', async () => {
    const printer = t.printer;
    const p = await sale({ amount: 2510, method: 'credit' }, ['confirmed']);
    const paper = printer.lastReceipt!.lines;
    const text = await api('GET', `/v1/payments/${String(p.id)}/receipt`);
    expect(text.type).toMatch(/^text\/plain; charset=utf-8/);
    // The view is the paper but for the em dash the code pages lack, and the feed before the cut.
    expect(text.bytes.toString('utf8').replace('—', '-').replace('—', '-').split('\n').slice(0, -1)).toEqual(
      paper.slice(0, -4),
    );
    for (const columns of [32, 42, 48]) {
      const lines = (await api('GET', `/v1/payments/${String(p.id)}/receipt?columns=${columns}&copy=merchant`)).bytes
        .toString('utf8')
        .split('\n');
      expect(Math.max(...lines.map((l) => [...l].length))).toBeLessThanOrEqual(columns);
      expect(lines.map((l) => l.trim())).toContain('VIA ESTABELECIMENTO');
      expect(lines.map((l) => l.trim())).toContain('CRÉDITO À VISTA');
      const png = (await api('GET', `/v1/payments/${String(p.id)}/receipt?format=png&columns=${columns}`)).bytes;
      expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      // IHDR: the paper is the model's print width (58 mm: 384 dots; 80 mm: 512 or 576) and grows with the lines.
      expect(png.readUInt32BE(16)).toBe({ 32: 384, 42: 512, 48: 576 }[columns]);
      expect(png.readUInt32BE(20)).toBeGreaterThan(24 * 20);
      // Ink on it: the decompressed pixels are not all white.
      const idat = png.indexOf('IDAT');
      const pixels = inflateSync(png.subarray(idat + 4, idat + 4 + png.readUInt32BE(idat - 4)));
      expect(pixels.some((b, i) => i % (png.readUInt32BE(16) + 1) !== 0 && b === 0)).toBe(true);
    }
    const html = await api('GET', `/v1/payments/${String(p.id)}/receipt?format=html`);
    expect(html.type).toMatch(/^text\/html; charset=utf-8/);
    expect(html.bytes.toString('utf8')).toMatch(/<b> *CRÉDITO À VISTA<\/b>/);
    expect(html.bytes.toString('utf8')).toMatch(
      /^<!doctype html>.*<meta charset="utf-8">.*<pre class="omnipos-receipt"/s,
    );
  });

  it('a Pix payment: paid in the sandbox, its receipt printed, reprinted as PAGAMENTO PIX with SEGUNDA VIA', async () => {
    const printer = t.printer;
    const created = await api('POST', '/v1/payments', {
      amount: 1234,
      method: 'pix',
      payer: { name: 'João da Conceição', document: '529.982.247-25' },
    });
    expect(created.status, created.bytes.toString()).toBe(202);
    const id = created.json().id as number;
    let paymentId: string | undefined;
    for (let i = 0; i < 200 && !paymentId; i++) {
      paymentId = (t.journal.get(id)?.data as { paymentId?: string }).paymentId;
      if (!paymentId) await new Promise((r) => setTimeout(r, 25));
    }
    const paid = await request(`${t.sandbox.url}/sandbox/pix/${paymentId!}/pay`, { method: 'POST' });
    expect(paid.statusCode).toBe(200);
    await paid.body.text();
    for (let i = 0; i < 400 && t.journal.get(id)?.state !== 'confirmed'; i++)
      await new Promise((r) => setTimeout(r, 25));
    expect(t.journal.transitions(id).map((x) => x.to)).toEqual([
      'creating',
      'showing',
      'approved',
      'printing',
      'confirmed',
    ]);
    const first = printer.lastReceipt!.lines;
    expect((await api('POST', `/v1/payments/${id}/receipt/print`)).json()).toMatchObject({ id, result: 'printed' });
    const again = printer.lastReceipt!.lines;
    expect(again.map((l) => l.trim())).toContain('PAGAMENTO PIX');
    expect(again.join('\n')).toMatch(/VALOR +R\$ 12,34/);
    expect(again.filter((l) => !l.includes('SEGUNDA VIA'))).toEqual([...first]);
    expect(again.length).toBe(first.length + 1);
  });

  it('a declined sale has no receipt: 409 RECEIPT_NOT_AVAILABLE, nothing printed', async () => {
    const printer = t.printer;
    const p = await sale({ amount: 2511, method: 'credit' }, ['declined']);
    const count = printer.receipts.length;
    const r = await api('POST', `/v1/payments/${String(p.id)}/receipt/print`);
    expect(r.status).toBe(409);
    expect(r.json()).toMatchObject({ error: { code: 'RECEIPT_NOT_AVAILABLE' } });
    expect(printer.receipts.length).toBe(count);
  });

  it('paper out mid-receipt at a counter: printing, the question, the cashier says no → undone, and no receipt to reprint', async () => {
    const printer = t.printer;
    printer.loadPaper(3);
    const created = await api('POST', '/v1/payments', { amount: 2510, method: 'credit' });
    const id = created.json().id as number;
    try {
      for (let i = 0; i < 600 && !(t.journal.get(id)?.state === 'printing' && t.journal.get(id)?.data.deadline); i++)
        await new Promise((r) => setTimeout(r, 25));
      expect(t.journal.get(id)).toMatchObject({ state: 'printing' });
      const trail = t.journal.transitions(id).map((x) => `${x.to}:${x.input}`);
      expect(trail.slice(-3)).toEqual(['approved:card approved', 'printing:print', 'printing:receipt unsure']);
    } finally {
      printer.loadPaper();
    }
    const answered = await api('POST', `/v1/payments/${id}/receipt/answer`, { printed: false });
    expect(answered.json()).toMatchObject({ id, status: 'undone', reason: 'the receipt did not come out' });
    expect((await api('POST', `/v1/payments/${id}/receipt/print`)).json()).toMatchObject({
      error: { code: 'RECEIPT_NOT_AVAILABLE' },
    });
    for (let i = 0; i < 200 && t.busy; i++) await new Promise((r) => setTimeout(r, 25));
  });

  it('omnipos receipt reprint (no ID: the last sale with a receipt) and omnipos receipt show, against the running daemon', async () => {
    const printer = t.printer;
    // The newest sale with a receipt awaits the cash register's decision: it has its receipt already.
    const last = await sale({ amount: 2510, method: 'credit', confirmation: 'ecr' }, ['approved']);
    expect(last.state).toBe('awaiting-decision');
    const count = printer.receipts.length;
    const c = cli();
    expect(await receiptReprint.run([], c.ctx)).toBe(0);
    expect(c.out()).toContain(`payment ${String(last.id)} (order ${String(last.merchantOrderId)})`);
    expect(c.out()).toContain('customer copy reprinted');
    expect(printer.receipts.length).toBe(count + 1);
    expect(printer.lastReceipt!.text).toContain('SEGUNDA VIA (2a VIA)');
    const s = cli();
    expect(await receiptShow.run([String(last.id), '--format', 'text', '--columns', '32'], s.ctx)).toBe(0);
    expect(s.out()).toContain('VIA CLIENTE');
    expect(s.out()).not.toContain('SEGUNDA VIA');
    await expect(receiptShow.run(['424242'], cli().ctx)).rejects.toMatchObject({ code: 'ENGINE_NOT_FOUND' });
    await expect(receiptShow.run(['x1'], cli().ctx)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    // No daemon at that port: exit 3 with how to start one.
    await expect(
      receiptReprint.run([], {
        ...cli().ctx,
        env: { OMNIPOS_STATE_DIR: t.config.stateDir, OMNIPOS_API__PORT: '1' },
      }),
    ).rejects.toMatchObject({ code: 'OPERATIONS_DAEMON_UNREACHABLE' });
  });
});
