import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simCard } from '../../../src/cli/pinpad-card.js';
import { runCli } from '../../../src/cli/run.js';
import { startTestDaemon, type TestDaemon } from '../../helpers/daemon.js';

/**
 * Defect 11 of the contract, on the laptop setup (embedded virtual pinpad): the card the customer
 * presents is chosen per sale through the pinpad's control port (`pinpad.device.control`, then
 * `omnipos sim card --control PORT --name …`), so a debit sale can be tried; and a card that does
 * not fit the sale's method ends `refused` with `refusal: no-product-of-type`, not `cancelled` as if the
 * customer had cancelled.
 */

/** A loopback port free now (the kernel's pick, released): the control port the daemon is given. */
async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const { port } = s.address() as net.AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

let t: TestDaemon;
let control: number;
beforeAll(async () => {
  control = await freePort();
  t = await startTestDaemon({
    prefix: 'omnipos-card-choice-',
    env: { OMNIPOS_PINPAD__DEVICE__CONTROL: String(control) },
  });
}, 60_000);
afterAll(async () => {
  await t?.stop();
});

async function present(name: string): Promise<void> {
  let err = '';
  const code = await runCli(
    ['sim', 'card', '--control', String(control), '--name', name],
    { out: () => undefined, err: (x) => void (err += x), env: {} },
    [simCard],
  );
  expect(code, err).toBe(0);
}

async function sale(method: string): Promise<Record<string, unknown>> {
  const c = await t.call('POST', '/v1/payments', { amount: 1500, method });
  expect(c.status).toBe(202);
  let b = c.body;
  for (let i = 0; i < 800 && b.status === 'pending'; i++) {
    await new Promise((r) => setTimeout(r, 25));
    b = (await t.call('GET', `/v1/payments/${c.body.id as number}`)).body;
  }
  return b;
}

describe('the card of each sale on the laptop setup (defect 11)', () => {
  it('a debit sale with the debit card chosen on the control port is confirmed', async () => {
    await present('visa debit');
    const b = await sale('debit');
    expect(b).toMatchObject({ status: 'confirmed', method: 'debit' });
  }, 60_000);

  it('a voucher sale with the voucher card chosen is confirmed', async () => {
    await present('alelo voucher');
    const b = await sale('voucher');
    expect(b).toMatchObject({ status: 'confirmed', method: 'voucher' });
  }, 60_000);

  it('a credit-only card on a debit sale is refused, with its reason, not cancelled', async () => {
    await present('elo credit');
    const b = await sale('debit');
    expect(b).toMatchObject({ status: 'refused', state: 'refused', refusal: 'no-product-of-type' });
    expect(b.reason).toMatch(/debit|PhysicalDebitCard/i);
  }, 60_000);
});
