import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../helpers/cli.js';
import { startTestDaemon, type TestDaemon } from '../helpers/daemon.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { bearer, send } from './attacker.js';

/**
 * The smaller findings, on a real daemon: a request body that names a key twice, the receipt's
 * HTML as a page of its own, and the support bundle written through a planted symbolic link.
 */
let t: TestDaemon;
const temp = useTempDirs();
beforeAll(async () => {
  t = await startTestDaemon({ prefix: 'omnipos-sec-small-' });
});
afterAll(async () => {
  await t?.stop();
});

const payments = (): number => t.journal.list().length;

async function confirmedSale(): Promise<number> {
  const created = await t.call('POST', '/v1/payments', { amount: 2510, method: 'credit' });
  expect(created.status).toBe(202);
  const id = created.body.id as number;
  for (let i = 0; i < 600; i++) {
    if ((await t.call('GET', `/v1/payments/${id}`)).body.status === 'confirmed' && !t.busy) return id;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`payment ${id} was not confirmed`);
}

describe('smaller findings', () => {
  it('a request body naming a key twice is refused (400), at any depth, and starts nothing', async () => {
    const before = payments();
    for (const body of [
      '{"amount":100,"method":"credit","amount":100000}',
      '{"amount":100,"method":"credit","\\u0061mount":100000}',
      '{"amount":100,"method":"credit","items":[{"sku":"a","sku":"b"}]}',
    ]) {
      const r = await send(t.apiUrl, 'POST', '/v1/payments', { headers: bearer(t.token), body });
      expect(r.status, body).toBe(400);
      expect(r.json.error?.code).toBe('INVALID_JSON');
    }
    expect(payments()).toBe(before);
  });

  it("the receipt's HTML carries the screens' Content-Security-Policy and nosniff", async () => {
    const id = await confirmedSale();
    const r = await send(t.apiUrl, 'GET', `/v1/payments/${id}/receipt?format=html`, {
      headers: bearer(t.token),
    });
    expect(r.status).toBe(200);
    expect(r.headers['content-security-policy']).toMatch(/default-src 'none'; script-src 'self'/);
    expect(r.headers['x-content-type-options']).toBe('nosniff');
  });

  it('support bundle --out does not follow a symbolic link planted there', async () => {
    const dir = temp('omnipos-sec-bundle-');
    const victim = path.join(dir, 'victim');
    writeFileSync(victim, 'precious\n');
    const link = path.join(dir, 'omnipos-support.tar.gz');
    symlinkSync(victim, link);
    const port = new URL(t.apiUrl).port;
    const env = { OMNIPOS_STATE_DIR: t.stateDir, OMNIPOS_API__PORT: port };
    const r = await runCliCaptured(['support', 'bundle', '--out', link], env).catch((e: Error) => ({
      code: -1,
      out: '',
      err: e.message,
    }));
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(/symbolic link/);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
  });
});
