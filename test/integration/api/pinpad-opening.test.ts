import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDaemon, type TestDaemon } from '../../helpers/daemon.js';
import { startSim, type SimProcess } from '../../helpers/sim-process.js';

/**
 * Issue 32, defect 4: 503 PINPAD_OPENING, declared on the operations that answer it, reached the way
 * docs/integration.md ("Every answer on a laptop") says: the virtual pinpad as its own process, its
 * secure session held by a delay on its control port, the daemon opening it in the background.
 */

let sim: SimProcess;
let t: TestDaemon;
beforeAll(async () => {
  sim = await startSim(['--timing', 'ppc930']);
  await sim.control({ cmd: 'fault', fault: { kind: 'delay', ms: 20_000, count: 1 } });
  t = await startTestDaemon({
    env: {
      OMNIPOS_PINPAD__DEVICE__KIND: 'tcp',
      OMNIPOS_PINPAD__DEVICE__HOST: '127.0.0.1',
      OMNIPOS_PINPAD__DEVICE__PORT: String(sim.tcp),
    },
    deps: { pinpadAtStart: 'background' },
  });
});
afterAll(async () => {
  // SIGKILL: the pinpad still holds its 20 s delay, which a SIGTERM waits out.
  await sim?.stop('SIGKILL');
  await t?.stop();
});

describe('while the pinpad’s secure session opens', () => {
  it('a card sale answers 503 PINPAD_OPENING (declared on createPayment), health says opening, and nothing is journaled', async () => {
    const health = await t.call('GET', '/v1/health');
    expect(health.body.pinpad).toMatchObject({ opening: true });
    const sale = await t.call('POST', '/v1/payments', { amount: 1000, method: 'credit' });
    expect(sale.status).toBe(503);
    expect((sale.body.error as { code: string }).code).toBe('PINPAD_OPENING');
    expect((await t.call('GET', '/v1/payments')).body.payments).toEqual([]);
  });
});
