import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSupervisorPassword } from '../../src/operations/index.js';
import { startTestDaemon, type TestDaemon } from '../helpers/daemon.js';
import { bearer, send } from './attacker.js';

/**
 * The supervisor gate under attack, on a real daemon: anyone holding the cash register's token (a
 * kiosk or cashier screen too) guesses supervisor credentials. The guesser is locked out, with a
 * growing back-off and an alarm; the supervisor is never refused because someone else guessed wrong.
 */
let t: TestDaemon;
let supervisorToken: string;
const PASSWORD = 'gerente2468';

beforeAll(async () => {
  t = await startTestDaemon({ prefix: 'omnipos-sec-gate-' });
  supervisorToken = readFileSync(path.join(t.stateDir, 'supervisor-token'), 'utf8').trim();
  writeSupervisorPassword(path.join(t.stateDir, 'supervisor-password'), PASSWORD);
});
afterAll(async () => {
  await t?.stop();
});

/** A void of a payment that does not exist: the gate answers first (403), a supervisor gets 404. */
const tryVoid = (headers: Record<string, string>, from = '127.0.0.1') =>
  send(t.apiUrl, 'POST', '/v1/payments/999999/void', { headers: bearer(t.token, headers), body: '{}', from });

describe('the supervisor gate', () => {
  it('refuses to store a supervisor password shorter than 8 characters or without a letter and a digit (PCI DSS 8.3.6)', () => {
    const file = path.join(t.stateDir, 'pw-short');
    for (const weak of ['2468', '1234567', '12345678'])
      expect(() => writeSupervisorPassword(file, weak)).toThrow(/supervisor password/);
  });

  it("five wrong supervisor tokens sent with the cash register's token do not lock out the right one", async () => {
    for (let i = 0; i < 6; i++) {
      const r = await tryVoid({ 'x-supervisor-token': `guess-${i}-${'x'.repeat(40)}` });
      expect(r.json.error?.code).toBe('SUPERVISOR_REQUIRED');
    }
    const right = await tryVoid({ 'x-supervisor-token': supervisorToken });
    expect(right.status).toBe(404);
  });

  it("a client guessing passwords is locked out alone: the supervisor's right password from another client passes, and the lockout is an alarm", async () => {
    for (let i = 0; i < 5; i++)
      expect((await tryVoid({ 'x-supervisor-password': `guess${i}000` }, '127.0.0.2')).json.error?.code).toBe(
        'SUPERVISOR_REQUIRED',
      );
    const locked = await tryVoid({ 'x-supervisor-password': PASSWORD }, '127.0.0.2');
    expect(locked.status).toBe(403);
    expect(locked.json.error?.message).toMatch(/too many wrong supervisor credentials.*try again in 60 s/);
    const other = await tryVoid({ 'x-supervisor-password': PASSWORD }, '127.0.0.1');
    expect(other.status).toBe(404);
    const health = await t.call('GET', '/v1/health');
    const alarms = health.body.alarms as { code: string; message: string }[];
    const lockouts = alarms.filter((a) => a.code === 'SUPERVISOR_LOCKOUT').map((a) => a.message);
    expect(lockouts).toContainEqual(expect.stringContaining('password:register@127.0.0.2'));
    expect(JSON.stringify(health.body)).not.toContain('guess');
  });
});
