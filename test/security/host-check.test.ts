import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDaemon, type TestDaemon } from '../helpers/daemon.js';
import { bearer, send } from './attacker.js';

/**
 * DNS rebinding, on a real daemon: a page on `evil.example` whose name is made to resolve to
 * 127.0.0.1 reaches the loopback listeners with `Host: evil.example`. The API (its public routes
 * too) and the sandbox's controls (which hand out the test credentials) answer only a loopback
 * Host or a configured LAN name (the LAN's names: test/security/lan-tls.test.ts).
 */
let t: TestDaemon;
beforeAll(async () => {
  t = await startTestDaemon({ prefix: 'omnipos-sec-host-' });
});
afterAll(async () => {
  await t?.stop();
});

const port = (url: string): string => new URL(url).port;

describe('Host checks', () => {
  it('the API refuses a foreign Host on every route, public or not, before anything else (421)', async () => {
    const api = t.apiUrl;
    for (const [method, path] of [
      ['GET', '/v1/openapi.json'],
      ['GET', '/v1/docs'],
      ['GET', '/v1/health'],
      ['GET', '/v1/payments'],
      ['GET', '/screens/cashier.html'],
      ['GET', '/metrics'],
    ] as const) {
      for (const host of ['evil.example', `evil.example:${port(api)}`, 'localhost.evil.example', '127.0.0.1.nip.io']) {
        const r = await send(api, method, path, { headers: bearer(t.token, { host }) });
        expect(`${method} ${path} ${host} ${r.status}`).toBe(`${method} ${path} ${host} 421`);
        expect(r.json.error?.code).toBe('MISDIRECTED_REQUEST');
      }
    }
  });

  it('the API answers the loopback names and addresses', async () => {
    const api = t.apiUrl;
    for (const host of [
      `127.0.0.1:${port(api)}`,
      `localhost:${port(api)}`,
      'localhost',
      `[::1]:${port(api)}`,
      '127.0.0.1',
    ])
      expect((await send(api, 'GET', '/v1/health', { headers: bearer(t.token, { host }) })).status).toBe(200);
  });

  it("the sandbox's controls refuse a foreign Host: GET /sandbox/credentials gives no secret to a rebinding page", async () => {
    const controls = t.sandbox.url;
    const evil = await send(controls, 'GET', '/sandbox/credentials', { headers: { host: 'evil.example' } });
    expect(evil.status).toBe(421);
    expect(evil.text).not.toContain('clientSecret');
    const clock = await send(controls, 'POST', '/sandbox/clock', {
      headers: { host: 'evil.example', 'content-type': 'application/json' },
      body: JSON.stringify({ advanceMs: 86_400_000 }),
    });
    expect(clock.status).toBe(421);
    const local = await send(controls, 'GET', '/sandbox/credentials', {
      headers: { host: `127.0.0.1:${port(controls)}` },
    });
    expect(local.status).toBe(200);
  });
});
