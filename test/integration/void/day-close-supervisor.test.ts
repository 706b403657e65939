import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayClose } from '../../../src/cli/day.js';
import type { CliContext } from '../../../src/cli/context.js';
import { supervisorPassword } from '../../../src/cli/void.js';
import type { Daemon } from '../../../src/main.js';
import { captureLogger } from '../../helpers/capture-log.js';
import { supervisedDaemon } from '../../helpers/wallet-pay.js';

/** Closing the day needs a supervisor, as a void does: through a real daemon, its API and the CLI. */

let t: Awaited<ReturnType<typeof supervisedDaemon>>;
let daemon: Daemon;
let token: string;
let supervisor: string;
let stateDir: string;
let env: Record<string, string>;
const { log } = captureLogger('info');

beforeAll(async () => {
  t = await supervisedDaemon(log);
  ({ daemon, token, supervisor, stateDir, env } = t);
}, 60_000);
afterAll(async () => {
  await t?.stop();
});

async function close(
  headers: Record<string, string>,
): Promise<{ status: number; body: { error?: { code: string }; alreadyClosed?: boolean } }> {
  const res = await request(`${daemon.apiUrl}/v1/day/close`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, ...headers },
  });
  return { status: res.statusCode, body: (await res.body.json()) as { error?: { code: string } } };
}

const cli = (): { ctx: CliContext; out: () => string; err: () => string } => {
  let out = '';
  let err = '';
  return { ctx: { out: (s) => void (out += s), err: (s) => void (err += s), env }, out: () => out, err: () => err };
};

const archived = (): number => (daemon.db.prepare('SELECT COUNT(*) AS n FROM day_closes').get() as { n: number }).n;

describe('the day close needs a supervisor', () => {
  it("refuses the cash register's token alone, its token as a supervisor's, a wrong password; closes with the supervisor token", async () => {
    expect(await close({})).toMatchObject({ status: 403, body: { error: { code: 'SUPERVISOR_REQUIRED' } } });
    expect(await close({ 'x-supervisor-token': token })).toMatchObject({
      status: 403,
      body: { error: { code: 'SUPERVISOR_REQUIRED' } },
    });
    // No password set yet: a password is not a credential here.
    expect(await close({ 'x-supervisor-password': '1234' })).toMatchObject({
      status: 409,
      body: { error: { code: 'SUPERVISOR_NOT_CONFIGURED' } },
    });
    expect(archived()).toBe(0);
    const ok = await close({ 'x-supervisor-token': supervisor });
    expect(ok.status).toBe(201);
    expect(archived()).toBe(1);
  });

  it('omnipos day close asks the supervisor password: a wrong one exits 4, the right one shows the (archived) close', async () => {
    const pwFile = path.join(stateDir, 'pw');
    writeFileSync(pwFile, 'dia86420\n');
    expect(await supervisorPassword.run(['--from-file', pwFile], cli().ctx)).toBe(0);
    const wrong = path.join(stateDir, 'wrong');
    writeFileSync(wrong, '11111\n');
    const bad = cli();
    expect(await dayClose.run(['--supervisor-password-file', wrong], bad.ctx)).toBe(4);
    expect(bad.err()).toMatch(/supervisor password is not valid \[SUPERVISOR_REQUIRED\]/);
    const good = cli();
    expect(await dayClose.run(['--supervisor-password-file', pwFile, '--json'], good.ctx)).toBe(0);
    expect(JSON.parse(good.out())).toMatchObject({ alreadyClosed: true });
    // Without a terminal and without the file, nothing is sent.
    await expect(dayClose.run([], cli().ctx)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
