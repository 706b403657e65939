import { readFileSync, statSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDaemon, type TestDaemon } from '../helpers/daemon.js';
import { bearer, send } from './attacker.js';

/**
 * Scoped tokens (issue 31), read from the OpenAPI document itself: the kiosk and cashier screens
 * each hold a token of their own that reaches only the operations the document lists its scheme
 * on, and of those on one payment, only the payments that token started. A screen's token is
 * refused everything else: the list of payments, confirm, undo, voids, the day, metrics.
 */
let t: TestDaemon;
let kiosk: string;
let cashier: string;
type Op = { security?: Record<string, string[]>[] };
let doc: { paths: Record<string, Record<string, Op>>; components: { securitySchemes: Record<string, unknown> } };

beforeAll(async () => {
  t = await startTestDaemon({ prefix: 'omnipos-sec-scopes-' });
  kiosk = readFileSync(path.join(t.stateDir, 'kiosk-token'), 'utf8').trim();
  cashier = readFileSync(path.join(t.stateDir, 'cashier-token'), 'utf8').trim();
  doc = (await send(t.apiUrl, 'GET', '/v1/openapi.json')).json as unknown as typeof doc;
});
afterAll(async () => {
  await t?.stop();
});

const schemesOf = (op: Op): string[] => (op.security ?? [{ bearer: [] }]).flatMap((r) => Object.keys(r));

/** The first `max` bytes of a stream's answer (the replay comes at once), then the connection closed. */
function streamText(p: string, headers: Record<string, string>, max = 4096, ms = 1500): Promise<string> {
  const url = new URL(t.apiUrl);
  return new Promise((resolve, reject) => {
    let text = '';
    const req = request({ host: url.hostname, port: url.port, path: p, headers, agent: false }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        text += c;
        if (text.length >= max) req.destroy();
      });
    });
    const timer = setTimeout(() => req.destroy(), ms);
    req.on('close', () => {
      clearTimeout(timer);
      resolve(text);
    });
    req.on('error', (e) => (text ? resolve(text) : reject(e)));
    req.end();
  });
}

const ids = (text: string): number[] =>
  [...text.matchAll(/^data: (.*)$/gm)].map((m) => (JSON.parse(m[1] ?? '{}') as { id: number }).id);

describe('scoped tokens', () => {
  it('each screen has a token file of its own, 0600, none the cash register’s; the document declares their schemes', () => {
    for (const name of ['kiosk-token', 'cashier-token'])
      expect(statSync(path.join(t.stateDir, name)).mode & 0o777).toBe(0o600);
    expect(new Set([kiosk, cashier, t.token]).size).toBe(3);
    expect(doc.components.securitySchemes).toMatchObject({
      kiosk: { type: 'http', scheme: 'bearer' },
      cashier: { type: 'http', scheme: 'bearer' },
    });
  });

  it('every operation the document does not open to a screen answers 401 to its token; the others do not', async () => {
    const api = t.apiUrl;
    let refused = 0;
    for (const [route, ops] of Object.entries(doc.paths))
      for (const [m, op] of Object.entries(ops)) {
        // Public operations take no token; the stream (open to both) is read in the next test.
        if (op.security?.length === 0 || route === '/v1/events') continue;
        const url = route.replace('{id}', '1');
        for (const [scope, token] of [
          ['kiosk', kiosk],
          ['cashier', cashier],
        ] as const) {
          const r = await send(api, m.toUpperCase(), url, { headers: bearer(token), body: m === 'post' ? '{}' : '' });
          if (schemesOf(op).includes(scope)) expect(r.status, `${scope} ${m} ${route}`).not.toBe(401);
          else {
            expect(r.status, `${scope} ${m} ${route}`).toBe(401);
            refused++;
          }
        }
      }
    // The list, confirm, undo, the day's two, the void's three, metrics: for both screens.
    expect(refused).toBeGreaterThanOrEqual(2 * 9);
  });

  it('a screen reaches the payments it started and no other: another screen’s is 404, its stream shows only its own', async () => {
    const api = t.apiUrl;
    const started = await send(api, 'POST', '/v1/payments', {
      headers: bearer(kiosk),
      body: JSON.stringify({ amount: 1234, method: 'credit', confirmation: 'ecr' }),
    });
    expect(started.status).toBe(202);
    const id = started.json.id as number;
    expect((await send(api, 'GET', `/v1/payments/${id}`, { headers: bearer(kiosk) })).status).toBe(200);
    expect((await send(api, 'GET', `/v1/payments/${id}`, { headers: bearer(t.token) })).status).toBe(200);
    const other = await send(api, 'GET', `/v1/payments/${id}`, { headers: bearer(cashier) });
    expect([other.status, other.json.error?.code]).toEqual([404, 'NOT_FOUND']);
    for (const p of [`/v1/payments/${id}/cancel`, `/v1/payments/${id}/receipt/print`])
      expect((await send(api, 'POST', p, { headers: bearer(cashier), body: '{}' })).status).toBe(404);
    expect((await send(api, 'POST', `/v1/payments/${id}/confirm`, { headers: bearer(kiosk), body: '{}' })).status).toBe(
      401,
    );
    // The kiosk's stream, as its page opens it (a ticket bought with its token): its own payment's events only.
    const ticket = (await send(api, 'POST', '/v1/events/ticket', { headers: { authorization: `Bearer ${kiosk}` } }))
      .json.ticket as string;
    const own = ids(await streamText(`/v1/events?ticket=${encodeURIComponent(ticket)}`, { 'last-event-id': '0' }));
    expect(own.length).toBeGreaterThan(0);
    expect(new Set(own)).toEqual(new Set([id]));
    // The cashier screen's replay of the same day shows none of it; the register's shows it.
    const theirs = ids(await streamText('/v1/events', { authorization: `Bearer ${cashier}`, 'last-event-id': '0' }));
    expect(theirs).toEqual([]);
    const all = ids(await streamText('/v1/events', { authorization: `Bearer ${t.token}`, 'last-event-id': '0' }));
    expect(all).toContain(id);
    await send(api, 'POST', `/v1/payments/${id}/cancel`, { headers: bearer(kiosk), body: '' });
  });
});
