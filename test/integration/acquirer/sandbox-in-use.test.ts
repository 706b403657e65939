import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxCredentialsCommand } from '../../../src/cli/sandbox.js';
import { walletPay } from '../../../src/cli/wallet.js';
import { runCli } from '../../../src/cli/run.js';
import { SANDBOX_BASES } from '../../../src/sandbox/index.js';
import { TEST_CARDS } from '../../../tables/test-cards.js';
import { startTestDaemon, type TestDaemon } from '../../helpers/daemon.js';

/**
 * Defect 10 of the contract: a daemon whose embedded sandbox took free ports (`sandbox.port: 0`).
 * `omnipos sandbox credentials --json` of the same state directory prints the addresses in use (not
 * `:0` and the configuration's defaults), and `omnipos wallet pay`, given no wallet address, pays the
 * daemon's own code at the daemon's wallet listener.
 */

let t: TestDaemon;
let env: Record<string, string>;
beforeAll(async () => {
  t = await startTestDaemon({ prefix: 'omnipos-in-use-', env: { OMNIPOS_SANDBOX__PORT: '0' } });
  env = { OMNIPOS_STATE_DIR: t.stateDir, OMNIPOS_SANDBOX__PORT: '0' };
}, 60_000);
afterAll(async () => {
  await t?.stop();
});

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, { out: (x) => void (out += x), err: (x) => void (err += x), env }, [
    sandboxCredentialsCommand,
    walletPay,
  ]);
  return { code, out, err };
}

describe("the sandbox's addresses in use (defect 10)", () => {
  it('sandbox credentials --json prints where the running sandbox listens', async () => {
    const r = await cli(['sandbox', 'credentials', '--json']);
    expect(r.code, r.err).toBe(0);
    const j = JSON.parse(r.out) as { addresses: Record<string, string>; addressesFrom: string };
    const running = t.sandbox;
    expect(j.addresses.controls).toBe(running.url);
    for (const b of SANDBOX_BASES) expect(j.addresses[b]).toBe(running.urls[b]);
    for (const u of Object.values(j.addresses)) expect(new URL(u).port).not.toMatch(/^(0|)$/);
    expect(j.addressesFrom).toBe(`the running sandbox (pid ${process.pid})`);
    const health = await request(`${j.addresses.controls}/sandbox/health`);
    await health.body.dump();
    expect(health.statusCode).toBe(200);
  });

  it("wallet pay finds the daemon's wallet address and pays its code", async () => {
    const created = await t.call('POST', '/v1/payments', { amount: 1234, method: 'wallet-qr' });
    expect(created.status).toBe(202);
    let qr: string | undefined;
    for (let i = 0; i < 400 && !qr; i++) {
      qr = (await t.call('GET', `/v1/payments/${created.body.id as number}`)).body.qrCode as string | undefined;
      if (!qr) await new Promise((r) => setTimeout(r, 25));
    }
    const card = TEST_CARDS[0]!;
    const exp = `${card.expiry.slice(2)}${card.expiry.slice(0, 2)}`;
    const r = await cli(
      ['wallet', 'pay', qr!, '--card', card.pan, '--cvv', '123', '--exp', exp].concat([
        '--name',
        'TESTE CARTAO',
        '--document',
        '52998224725',
      ]),
    );
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ authorization_code: expect.stringMatching(/^\d{6}$/) });
  });

  it('with no sandbox running, the configuration says (and says so)', async () => {
    const before = env;
    env = { OMNIPOS_STATE_DIR: `${t.stateDir}/elsewhere`, OMNIPOS_SANDBOX__PORT: '0' };
    try {
      const j = JSON.parse((await cli(['sandbox', 'credentials', '--json'])).out) as { addressesFrom: string };
      expect(j.addressesFrom).toBe('the configuration (no sandbox running)');
    } finally {
      env = before;
    }
  });
});
