import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACQUIRER_CNPJ } from '../../../src/api/payment-fiscal.js';
import { isValidCnpj } from '../../../src/crypto/index.js';
import { holdStreams } from '../../helpers/daemon.js';
import { documentedApi, ownTestRoutes, type TestDaemon } from '../../helpers/documented-api.js';

/**
 * Every response the OpenAPI document declares (route × status) is produced on a real daemon
 * over loopback and checked against its schema; a declared answer nobody produced fails the test,
 * and so does a real answer the document does not declare.
 */

const api = documentedApi();
const { hit, until, idle, paths, seen } = api;
let t: TestDaemon;
beforeAll(async () => {
  t = await api.start();
});
afterAll(async () => {
  await api.stop();
});

const json = (v: unknown): string => JSON.stringify(v);

describe('every documented answer, produced on a real daemon and checked against the document', () => {
  it('payments: create, busy, idempotency, bad input, read, confirm, undo, cancel, list', async () => {
    // 202, then 409 busy while the first card sale holds the pinpad.
    const first = await hit('/v1/payments', '/v1/payments', {
      method: 'POST',
      body: json({ amount: 2510, method: 'credit', confirmation: 'ecr' }),
      headers: { 'idempotency-key': 'cov-1' },
    });
    expect(first.status).toBe(202);
    const busy = await hit('/v1/payments', '/v1/payments', {
      method: 'POST',
      body: json({ amount: 2510, method: 'debit' }),
    });
    expect(busy).toMatchObject({ status: 409, body: { error: { code: 'BUSY' } } });
    // 200: the same key and body give the same payment; 422: the same key for another body.
    const again = await hit('/v1/payments', '/v1/payments', {
      method: 'POST',
      body: json({ amount: 2510, method: 'credit', confirmation: 'ecr' }),
      headers: { 'idempotency-key': 'cov-1' },
    });
    expect(again).toMatchObject({ status: 200, body: { id: first.body.id } });
    expect(
      (
        await hit('/v1/payments', '/v1/payments', {
          method: 'POST',
          body: json({ amount: 9999, method: 'credit' }),
          headers: { 'idempotency-key': 'cov-1' },
        })
      ).status,
    ).toBe(422);
    // 400 names the field at fault; 413, 415, 401.
    const cases: [unknown, string][] = [
      [{ amount: 1.5, method: 'credit' }, 'amount'],
      [{ amount: 100 }, 'method'],
      [{ amount: 100, method: 'cash' }, 'method'],
      [{ amount: 100, method: 'credit', installments: 0 }, 'installments'],
      [{ amount: 100, method: 'credit', tip: 1 }, 'tip'],
      [{ amount: 100, method: 'credit', confirmation: 'later' }, 'confirmation'],
      [{ amount: 100, method: 'pix' }, 'payer'],
      [{ amount: 100, method: 'pix', payer: { name: 'Maria', document: '123' } }, 'payer.document'],
      [{ amount: 100, method: 'credit', qrModality: 'debit' }, 'qrModality'],
    ];
    for (const [body, field] of cases) {
      const r = await hit('/v1/payments', '/v1/payments', { method: 'POST', body: json(body) });
      expect(r, json(body)).toMatchObject({ status: 400, body: { error: { code: 'INVALID_FIELD', field } } });
      expect(String((r.body.error as { message: string }).message)).toMatch(
        new RegExp(`^${field.replace('.', '\\.')}: `),
      );
    }
    expect(
      (await hit('/v1/payments', '/v1/payments', { method: 'POST', body: '{"amount": 1', type: 'application/json' }))
        .body,
    ).toMatchObject({ error: { code: 'INVALID_JSON' } });
    expect(
      (
        await hit('/v1/payments', '/v1/payments', {
          method: 'POST',
          body: json({ amount: 1 }),
          headers: { 'idempotency-key': 'spaces are not allowed' },
        })
      ).body,
    ).toMatchObject({ error: { field: 'Idempotency-Key' } });
    expect(
      (await hit('/v1/payments', '/v1/payments', { method: 'POST', body: json({ pad: 'x'.repeat(70_000) }) })).status,
    ).toBe(413);
    expect(
      (
        await hit('/v1/payments', '/v1/payments', {
          method: 'POST',
          body: 'amount=1',
          type: 'application/x-www-form-urlencoded',
        })
      ).status,
    ).toBe(415);
    expect(
      (
        await hit('/v1/payments', '/v1/payments', {
          method: 'POST',
          body: json({ amount: 1, method: 'credit' }),
          token: 'wrong',
        })
      ).status,
    ).toBe(401);

    // The approved sale carries what the fiscal document needs.
    const approved = await until(first.body.id as number, (p) => p.status === 'approved');
    const read = await hit('/v1/payments/{id}', `/v1/payments/${String(first.body.id)}`);
    expect(read.body).toMatchObject({
      status: 'approved',
      fiscal: {
        integration: 1,
        acquirerCnpj: ACQUIRER_CNPJ,
        cardBrand: '01',
        cardBrandName: 'Visa',
        authorizationCode: approved.authorizationCode,
        nsu: approved.nsu,
      },
    });
    expect(isValidCnpj(ACQUIRER_CNPJ)).toBe(true);
    expect((read.body.fiscal as { authorizationCode: string }).authorizationCode).toMatch(/^\w+$/);
    expect((await hit('/v1/payments/{id}', '/v1/payments/424242')).status).toBe(404);
    expect((await hit('/v1/payments/{id}', '/v1/payments/abc')).status).toBe(404);
    expect((await hit('/v1/payments/{id}', '/v1/payments/1', { token: null })).status).toBe(401);
    expect(
      (await hit('/v1/payments/{id}/confirm', `/v1/payments/${String(first.body.id)}/confirm`, { method: 'POST' }))
        .body,
    ).toMatchObject({ status: 'confirmed' });
    // A decided sale takes no other decision, nor a cancel.
    for (const action of ['confirm', 'undo', 'cancel']) {
      expect(
        (
          await hit(`/v1/payments/{id}/${action}`, `/v1/payments/${String(first.body.id)}/${action}`, {
            method: 'POST',
          })
        ).body,
      ).toMatchObject({ error: { code: 'NOT_ALLOWED' } });
    }
    for (const action of ['confirm', 'undo', 'cancel']) {
      const route = `/v1/payments/{id}/${action}`;
      expect((await hit(route, `/v1/payments/999999/${action}`, { method: 'POST' })).status).toBe(404);
      expect((await hit(route, `/v1/payments/1/${action}`, { method: 'POST', token: 'nope' })).status).toBe(401);
      // An operation without a body refuses one rather than ignore it (issue 32).
      const withBody = await hit(route, `/v1/payments/1/${action}`, { method: 'POST', body: json({ reason: 'x' }) });
      expect(withBody.body).toMatchObject({ error: { code: 'INVALID_BODY' } });
    }
    await idle();

    // undo 200: a second sale the cash register undoes.
    const second = await hit('/v1/payments', '/v1/payments', {
      method: 'POST',
      body: json({ amount: 2510, method: 'credit', confirmation: 'ecr' }),
    });
    await until(second.body.id as number, (p) => p.status === 'approved');
    expect(
      (await hit('/v1/payments/{id}/undo', `/v1/payments/${String(second.body.id)}/undo`, { method: 'POST' })).body,
    ).toMatchObject({ status: 'undone' });
    expect(
      (await hit('/v1/payments/{id}/confirm', `/v1/payments/${String(second.body.id)}/confirm`, { method: 'POST' }))
        .body,
    ).toMatchObject({ error: { code: 'NOT_ALLOWED' } });
    await idle();
    // cancel 200: a wallet QR code the cash register withdraws while it shows.
    const qr = await hit('/v1/payments', '/v1/payments', {
      method: 'POST',
      body: json({ amount: 2610, method: 'wallet-qr', qrModality: 'credit' }),
    });
    expect(qr.body).toMatchObject({ status: 'pending', method: 'wallet-qr' });
    expect(
      (await hit('/v1/payments/{id}/cancel', `/v1/payments/${String(qr.body.id)}/cancel`, { method: 'POST' })).body,
    ).toMatchObject({ status: 'cancelled' });

    expect((await hit('/v1/payments', '/v1/payments?status=undone')).body.payments).toEqual([
      expect.objectContaining({ id: second.body.id }),
    ]);
    expect((await hit('/v1/payments', '/v1/payments?status=bogus')).status).toBe(400);
    expect((await hit('/v1/payments', '/v1/payments', { token: null })).status).toBe(401);
  }, 60_000);

  it('health, the event stream, the document', async () => {
    expect((await hit('/v1/health', '/v1/health')).status).toBe(200);
    expect((await hit('/v1/health', '/v1/health', { token: 'x' })).status).toBe(401);
    expect((await hit('/v1/events', '/v1/events', { token: null })).status).toBe(401);
    expect((await hit('/v1/events', '/v1/events', { headers: { 'last-event-id': 'yesterday' } })).status).toBe(400);
    expect((await hit('/v1/openapi.json', '/v1/openapi.json', { token: null })).status).toBe(200);
    expect(
      (await hit('/v1/openapi.json', '/v1/openapi.json', { token: null, headers: { accept: 'text/html' } })).status,
    ).toBe(406);
    expect((await hit('/v1/docs', '/v1/docs', { token: null, headers: { accept: 'application/json' } })).status).toBe(
      406,
    );
    const streamDoc = '/v1/events.openapi.json';
    expect((await hit(streamDoc, streamDoc, { token: null })).body).toMatchObject({ openapi: '3.2.0' });
    expect((await hit(streamDoc, streamDoc, { token: null, headers: { accept: 'text/html' } })).status).toBe(406);
    const page = await request(`${t.apiUrl}/v1/docs`);
    expect([page.statusCode, page.headers['content-type'], (await page.body.text()).slice(0, 15)]).toEqual([
      200,
      'text/html; charset=utf-8',
      '<!doctype html>',
    ]);
    seen.add('GET /v1/docs 200');
    // The screens' single-use ticket for EventSource, when the daemon has that route.
    if (paths()['/v1/events/ticket']) {
      expect((await hit('/v1/events/ticket', '/v1/events/ticket', { method: 'POST' })).status).toBe(201);
      expect((await hit('/v1/events/ticket', '/v1/events/ticket', { method: 'POST', token: null })).status).toBe(401);
      expect((await hit('/v1/events/ticket', '/v1/events/ticket', { method: 'POST', body: json({}) })).status).toBe(
        400,
      );
    }
    const held = await holdStreams(t.apiUrl, t.token);
    expect(held.statuses[0]).toBe(200);
    seen.add('GET /v1/events 200');
    expect((await hit('/v1/events', '/v1/events')).status).toBe(429);
    held.close();
  });

  it('GET /metrics: the Prometheus exposition behind the token', async () => {
    const res = await request(`${t.apiUrl}/metrics`, { headers: { authorization: `Bearer ${t.token}` } });
    const text = await res.body.text();
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/^application\/openmetrics-text; version=1\.0\.0/);
    expect(text).toContain('# TYPE omnipos_payments counter');
    expect(text.trimEnd().endsWith('# EOF')).toBe(true);
    expect(Object.keys(paths()['/metrics']?.get?.responses['200']?.content ?? {})).toEqual([
      'application/openmetrics-text',
    ]);
    seen.add('GET /metrics 200');
    expect((await hit('/metrics', '/metrics', { token: null })).status).toBe(401);
  });

  it('receipts: the view in four formats (text, HTML, PNG, the digital copy as a QR in SVG), the reprint, and their refusals', async () => {
    await idle();
    const sale = await hit('/v1/payments', '/v1/payments', {
      method: 'POST',
      body: json({ amount: 2510, method: 'credit' }),
    });
    await until(sale.body.id as number, (p) => p.status === 'confirmed');
    await idle();
    const url = `/v1/payments/${String(sale.body.id)}/receipt`;
    for (const [format, type] of [
      ['text', 'text/plain'],
      ['html', 'text/html'],
      ['png', 'image/png'],
      ['qr', 'image/svg+xml'],
    ] as const) {
      const res = await request(`${t.apiUrl}${url}?format=${format}`, {
        headers: { authorization: `Bearer ${t.token}` },
      });
      const bytes = Buffer.from(await res.body.arrayBuffer());
      expect(res.statusCode).toBe(200);
      expect(
        String(res.headers['content-type']).startsWith(type),
        `${format}: ${String(res.headers['content-type'])}`,
      ).toBe(true);
      if (format === 'png') expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      else if (format === 'qr') expect(bytes.toString('utf8')).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
      else expect(bytes.toString('utf8')).toContain('VIA CLIENTE');
    }
    const op = paths()['/v1/payments/{id}/receipt']?.get;
    expect(Object.keys(op?.responses['200']?.content ?? {}).sort()).toEqual([
      'image/png',
      'image/svg+xml',
      'text/html',
      'text/plain',
    ]);
    seen.add('GET /v1/payments/{id}/receipt 200');
    expect((await hit('/v1/payments/{id}/receipt', `${url}?format=pdf`)).body).toMatchObject({
      error: { code: 'INVALID_FIELD', field: 'format' },
    });
    expect((await hit('/v1/payments/{id}/receipt', url, { token: null })).status).toBe(401);
    expect((await hit('/v1/payments/{id}/receipt', '/v1/payments/999999/receipt')).status).toBe(404);
    const printed = await hit('/v1/payments/{id}/receipt/print', `${url}/print`, { method: 'POST' });
    expect(printed).toMatchObject({ status: 200, body: { id: sale.body.id, copy: 'customer', result: 'printed' } });
    expect(
      (await hit('/v1/payments/{id}/receipt/print', `${url}/print`, { method: 'POST', body: json({ copy: 'both' }) }))
        .body,
    ).toMatchObject({ error: { field: 'copy' } });
    expect((await hit('/v1/payments/{id}/receipt/print', `${url}/print`, { method: 'POST', token: null })).status).toBe(
      401,
    );
    // Both receipt actions read a JSON body: another type is 415, past 64 KiB 413 (issue 32: now declared).
    for (const action of ['print', 'answer'] as const) {
      const route = `/v1/payments/{id}/receipt/${action}`;
      expect((await hit(route, `${url}/${action}`, { method: 'POST', body: 'x', type: 'text/plain' })).status).toBe(
        415,
      );
      const big = json({ copy: 'x'.repeat(70_000) });
      expect((await hit(route, `${url}/${action}`, { method: 'POST', body: big })).status).toBe(413);
    }
    expect(
      (await hit('/v1/payments/{id}/receipt/print', '/v1/payments/999999/receipt/print', { method: 'POST' })).status,
    ).toBe(404);
    // A declined sale has no receipt.
    const declined = await hit('/v1/payments', '/v1/payments', {
      method: 'POST',
      body: json({ amount: 2511, method: 'credit' }),
    });
    await until(declined.body.id as number, (p) => p.status === 'declined');
    await idle();
    expect(
      (await hit('/v1/payments/{id}/receipt', `/v1/payments/${String(declined.body.id)}/receipt`)).body,
    ).toMatchObject({ error: { code: 'RECEIPT_NOT_AVAILABLE' } });
    expect(
      (
        await hit('/v1/payments/{id}/receipt/print', `/v1/payments/${String(declined.body.id)}/receipt/print`, {
          method: 'POST',
        })
      ).body,
    ).toMatchObject({ error: { code: 'RECEIPT_NOT_AVAILABLE' } });

    // The receipt question: the paper runs out mid-receipt, the cashier says it came out.
    const printer = t.printer;
    printer.loadPaper(3);
    const asked = await hit('/v1/payments', '/v1/payments', {
      method: 'POST',
      body: json({ amount: 2510, method: 'credit' }),
    });
    const answer = `/v1/payments/${String(asked.body.id)}/receipt/answer`;
    for (
      let i = 0;
      i < 600 &&
      !(
        t.journal.get(asked.body.id as number)?.state === 'printing' &&
        t.journal.get(asked.body.id as number)?.data.deadline
      );
      i++
    )
      await new Promise((r) => setTimeout(r, 25));
    printer.loadPaper();
    expect((await hit('/v1/payments/{id}', `/v1/payments/${String(asked.body.id)}`)).body).toMatchObject({
      status: 'pending',
      state: 'printing',
      receiptQuestion: true,
    });
    expect(
      (await hit('/v1/payments/{id}/receipt/answer', answer, { method: 'POST', body: json({ printed: 'yes' }) })).body,
    ).toMatchObject({ error: { field: 'printed' } });
    expect(
      (
        await hit('/v1/payments/{id}/receipt/answer', answer, {
          method: 'POST',
          body: json({ printed: true }),
          token: null,
        })
      ).status,
    ).toBe(401);
    expect(
      (
        await hit('/v1/payments/{id}/receipt/answer', '/v1/payments/999999/receipt/answer', {
          method: 'POST',
          body: json({ printed: true }),
        })
      ).status,
    ).toBe(404);
    expect(
      (await hit('/v1/payments/{id}/receipt/answer', answer, { method: 'POST', body: json({ printed: true }) })).body,
    ).toMatchObject({ status: 'confirmed', state: 'confirming' });
    expect(
      (await hit('/v1/payments/{id}/receipt/answer', answer, { method: 'POST', body: json({ printed: true }) })).body,
    ).toMatchObject({ error: { code: 'NOT_ALLOWED' } });
    await idle();
  }, 60_000);

  it('a Host the terminal does not answer for: 421 MISDIRECTED_REQUEST on every route (DNS rebinding)', async () => {
    const elsewhere = /^\/v1\/(day\/|voids\/|payments\/\{id\}\/voids?$)/;
    for (const [route, ops] of Object.entries(paths()).filter(([p]) => !elsewhere.test(p)))
      for (const m of Object.keys(ops)) {
        const url = route.replace('{id}', '1');
        const answer = await hit(route, url, {
          method: m.toUpperCase() as 'GET' | 'POST' | 'DELETE',
          headers: { host: 'evil.example' },
        });
        expect(answer, `${m.toUpperCase()} ${route}`).toMatchObject({
          status: 421,
          body: { error: { code: 'MISDIRECTED_REQUEST' } },
        });
      }
  });

  it('left nothing the document declares for these routes unproduced', () => {
    // Left to their own tests (same checker): voids, the day, card-not-present (cnp/api-sales, api/card-not-present-capture), `ownTestRoutes()`.
    const elsewhere = /^\/v1\/(day\/|voids\/|payments\/\{id\}\/voids?$|card-not-present\/)/;
    const own = ownTestRoutes();
    const declared = Object.entries(paths())
      .filter(([p]) => !elsewhere.test(p) && !own.has(p))
      .flatMap(([p, ops]) =>
        Object.entries(ops).flatMap(([m, op]) => Object.keys(op.responses).map((s) => `${m.toUpperCase()} ${p} ${s}`)),
      );
    expect(declared.length).toBeGreaterThanOrEqual(30);
    // 409 NOT_AVAILABLE (a method the configuration lacks) shares the BUSY answer's schema; the
    // sandbox configuration has every method. The 503s need a device or the disk held back: PINPAD_OPENING
    // is produced and checked by pinpad-opening.test.ts, STORE_WRITE_FAILED by the disk-fault tests
    // (test/integration/faults); the contract check holds every answer of those to the document too.
    expect(declared.filter((d) => !seen.has(d) && !d.endsWith(' 503')).sort()).toEqual([]);
  });
});
