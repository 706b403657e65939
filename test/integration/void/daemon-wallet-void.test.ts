import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { supervisorPassword, voidCommand } from '../../../src/cli/void.js';
import { parsePadraoq } from '../../../src/qr/index.js';
import { captureLogger } from '../../helpers/capture-log.js';
import { supervisedDaemon, walletPays as walletPaysAt } from '../../helpers/wallet-pay.js';
import type { TestDaemon } from '../../helpers/daemon.js';

/**
 * A wallet QR void through a real daemon: `POST /v1/payments/{id}/void` of a confirmed wallet QR
 * sale answers with the cancellation code, `omnipos wallet pay` pays it against the embedded
 * sandbox, the void ends approved, its receipt is on the virtual printer's paper, and every
 * answer matches the OpenAPI document.
 */

let t: Awaited<ReturnType<typeof supervisedDaemon>>;
let daemon: TestDaemon;
let token: string;
let supervisor: string;
let doc: Record<string, unknown>;
const { log } = captureLogger('info');

beforeAll(async () => {
  t = await supervisedDaemon(log);
  daemon = t;
  ({ token, supervisor } = t);
  doc = (await request(`${daemon.apiUrl}/v1/openapi.json`).then((r) => r.body.json())) as Record<string, unknown>;
}, 60_000);
afterAll(async () => {
  await t?.stop();
});

async function call(
  method: 'GET' | 'POST',
  p: string,
  o: { body?: unknown; headers?: Record<string, string>; route?: string } = {},
) {
  const res = await request(`${daemon.apiUrl}${p}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(o.headers ?? {}),
      ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(o.body !== undefined ? { body: JSON.stringify(o.body) } : {}),
  });
  const text = await res.body.text();
  const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  if (o.route) {
    const op = (
      doc.paths as Record<
        string,
        Record<string, { responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }> }>
      >
    )[o.route]?.[method.toLowerCase()];
    const schema = op?.responses[String(res.statusCode)]?.content?.['application/json']?.schema;
    expect(schema, `${method} ${o.route} ${res.statusCode} is not declared: ${text}`).toBeDefined();
    // The body's fit to that schema is the contract hook's (test/setup/contract.ts), on every answer.
  }
  return { status: res.statusCode, body };
}

async function poll(
  p: string,
  done: (b: Record<string, unknown>) => boolean,
  route?: string,
): Promise<Record<string, unknown>> {
  for (let i = 0; i < 400; i++) {
    const r = await call('GET', p, route ? { route } : {});
    if (done(r.body)) return r.body;
    await new Promise((res) => setTimeout(res, 25));
  }
  throw new Error(`${p} never settled`);
}

const walletPays = async (qr: string): Promise<number> => (await walletPaysAt(daemon.sandbox.urls.wallet, qr)).code;

describe('a wallet QR void through the daemon', () => {
  it('POST …/void of a confirmed wallet QR sale shows the cancellation code; the wallet pays it; approved, printed, the sandbox voided it', async () => {
    const created = await call('POST', '/v1/payments', {
      body: { amount: 3000, method: 'wallet-qr', confirmation: 'auto' },
    });
    expect(created.status).toBe(202);
    const id = created.body.id as number;
    const showing = await poll(`/v1/payments/${id}`, (b) => typeof b.qrCode === 'string');
    expect(await walletPays(showing.qrCode as string)).toBe(0);
    await poll(`/v1/payments/${id}`, (b) => b.status === 'confirmed' || b.state === 'confirmed');
    const printedBefore = daemon.printer.receipts.length;

    expect(
      (await call('POST', `/v1/payments/${id}/void`, { body: { amount: 1000 }, route: '/v1/payments/{id}/void' }))
        .status,
    ).toBe(403);
    const started = await call('POST', `/v1/payments/${id}/void`, {
      body: { amount: 1000 },
      headers: { 'x-supervisor-token': supervisor },
      route: '/v1/payments/{id}/void',
    });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({
      status: 'pending',
      state: 'showing-code',
      amount: 1000,
      payment: { id, remaining: 2000 },
    });
    const code = (started.body.cancellationCode as { qrCode: string }).qrCode;
    expect(parsePadraoq(code).qrcode_data.payment_information.tipo_de_transacao).toBe('02');

    expect(await walletPays(code)).toBe(0);
    const done = await poll(`/v1/voids/${started.body.id as number}`, (b) => b.status !== 'pending', '/v1/voids/{id}');
    expect(done).toMatchObject({ status: 'approved', state: 'confirmed', voidId: expect.any(String) });
    const list = await call('GET', `/v1/payments/${id}/voids`, { route: '/v1/payments/{id}/voids' });
    expect(list.body.payment).toEqual({ id, amount: 3000, voided: 1000, remaining: 2000 });
    const ledger = (await request(`${daemon.sandbox.url}/sandbox/ledger`).then((r) => r.body.json())) as {
      sales: { paymentId: string; voided: number; charged: number }[];
    };
    expect(ledger.sales.find((s) => s.paymentId === (done.payment as { paymentId: string }).paymentId)).toMatchObject({
      voided: 1000,
      charged: 2000,
    });
    for (let i = 0; i < 200 && daemon.printer.receipts.length < printedBefore + 2; i++)
      await new Promise((r) => setTimeout(r, 25));
    const paper = daemon.printer.receipts.slice(printedBefore).map((r) => r.lines.join('\n'));
    expect(paper).toHaveLength(2);
    for (const text of paper) {
      expect(text).toContain('CANCELAMENTO QR CODE');
      expect(text).toMatch(/VALOR CANCELADO +R\$ 10,00/);
    }

    // omnipos void prints the cancellation code (text and QR) and waits until the wallet paid it.
    const pw = path.join(t.stateDir, 'pw');
    writeFileSync(pw, 'sup97531\n');
    expect(
      await supervisorPassword.run(['--from-file', pw], { out: () => undefined, err: () => undefined, env: t.env }),
    ).toBe(0);
    let out = '';
    // One payment at a time per terminal: until the first void's flow is over (its code cleared from the
    // pinpad), the daemon answers 409 BUSY, and the operator tries again.
    const voidOnce = (): Promise<number> =>
      voidCommand.run([String(id), '--amount', '500', '--supervisor-password-file', pw, '--timeout', '30'], {
        out: (x) => void (out += x),
        err: (x) => void (out += x),
        env: t.env,
      });
    let running = voidOnce();
    for (let i = 0; i < 100; i++) {
      const first = await Promise.race([running, new Promise<undefined>((r) => setTimeout(() => r(undefined), 300))]);
      if (first === undefined || !/BUSY/.test(out)) break;
      out = '';
      await new Promise((r) => setTimeout(r, 100));
      running = voidOnce();
    }
    let printed: string | undefined;
    for (let i = 0; i < 400 && !printed; i++) {
      printed = /with the wallet \(until [^)]*\):\n(000201.+)\n/.exec(out)?.[1];
      if (!printed) await new Promise((r) => setTimeout(r, 25));
    }
    expect(printed, out).toBeDefined();
    expect(parsePadraoq(printed!).qrcode_data.transaction_amount).toBe('5.00');
    expect(out).toMatch(/[▀▄█]/);
    expect(await walletPays(printed!)).toBe(0);
    expect(await running).toBe(0);
    expect(out).toMatch(/VOID APPROVED; the sale has 1500 cents left to void/);
  }, 60_000);
});
