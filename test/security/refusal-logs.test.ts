import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogger } from '../helpers/capture-log.js';
import { startTestDaemon, type TestDaemon } from '../helpers/daemon.js';
import { bearer, send } from './attacker.js';

/**
 * What the daemon logs of an attacker's refused requests (PCI DSS 10.2.1.4), on a real daemon with
 * a real logger: failed authentication is logged, one line per client address per minute however
 * many it sends, never the token; a counter in /metrics counts every one; an expected refusal (a
 * wrong supervisor) is a `warn` without a stack.
 */
let t: TestDaemon;
const captured = captureLogger('info');
beforeAll(async () => {
  t = await startTestDaemon({ prefix: 'omnipos-sec-refusals-', log: captured.log });
});
afterAll(async () => {
  await t?.stop();
});

const lines = (): Record<string, unknown>[] =>
  captured
    .output()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('logging of refusals', () => {
  it('476 requests with wrong tokens from two addresses: one warn line per address, no token, all counted in /metrics', async () => {
    const api = t.apiUrl;
    const before = captured.output().length;
    for (let i = 0; i < 476; i++) {
      const from = i % 4 === 0 ? '127.0.0.2' : '127.0.0.1';
      const r = await send(api, 'GET', '/v1/payments', { headers: bearer(`stolen-guess-${i}-abcdef`), from });
      expect(r.status).toBe(401);
    }
    const logged = captured.output().slice(before);
    const refusals = lines().filter((l) => typeof l.msg === 'string' && l.msg.startsWith('API requests refused'));
    expect(refusals.map((l) => l.client).sort()).toEqual(['127.0.0.1', '127.0.0.2']);
    for (const l of refusals) {
      expect(l.level).toBe(40);
      expect(l.refused).toEqual({ UNAUTHORIZED: 1 });
    }
    expect(logged).not.toContain('stolen-guess');
    expect(Buffer.byteLength(logged)).toBeLessThan(2048);
    const metrics = await send(api, 'GET', '/metrics', { headers: bearer(t.token) });
    expect(metrics.text).toMatch(/^omnipos_api_auth_failures_total 476$/m);
  });

  it('a wrong supervisor is told at warn without a stack, and never the credential', async () => {
    const api = t.apiUrl;
    const r = await send(api, 'POST', '/v1/payments/999999/void', {
      headers: bearer(t.token, { 'x-supervisor-token': 'wrong-supervisor-guess-0123456789abcdef' }),
      body: '{}',
      from: '127.0.0.3',
    });
    expect(r.status).toBe(403);
    const line = lines().find((l) => l.client === '127.0.0.3');
    expect(line).toMatchObject({ level: 40, refused: { SUPERVISOR_REQUIRED: 1 } });
    expect(captured.output()).not.toContain('wrong-supervisor-guess');
    expect(captured.output()).not.toMatch(/"stack"/);
    expect(readFileSync(path.join(t.stateDir, 'supervisor-token'), 'utf8').length).toBeGreaterThan(32);
  });
});
