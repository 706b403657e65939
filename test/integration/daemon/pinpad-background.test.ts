import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VirtualPinpad } from '../../../src/sim/pinpad/index.js';
import { startTestDaemon, type TestDaemon } from '../../helpers/daemon.js';
import { startVirtualPinpad } from '../../helpers/virtual-pinpad.js';

// `omnipos run` is ready before the pinpad's first secure session is open (a PPC930's secure OPN
// takes ~3 s): here a pinpad that holds its OPN answer 6 s (under the driver's 10 s for a
// non-blocking command's answer), as a separate part on loopback TCP.
const OPN_HELD_MS = 6000;

let t: TestDaemon;
let pinpad: VirtualPinpad;

beforeAll(async () => {
  pinpad = await startVirtualPinpad({ tcpPort: 0 });
  pinpad.inject({ kind: 'delay', ms: OPN_HELD_MS, count: 1 });
  t = await startTestDaemon({
    prefix: 'omnipos-pinpad-bg-',
    env: {
      OMNIPOS_PINPAD__DEVICE__KIND: 'tcp',
      OMNIPOS_PINPAD__DEVICE__HOST: '127.0.0.1',
      OMNIPOS_PINPAD__DEVICE__PORT: String(pinpad.port),
    },
    deps: { pinpadAtStart: 'background' },
  });
}, 60_000);
afterAll(async () => {
  await t?.stop();
  await pinpad?.stop();
});

/** The daemon's API with its token (test/helpers/daemon.ts), the answer's body read as the test needs it. */
const call = (method: 'GET' | 'POST', p: string, body?: unknown): Promise<{ status: number; body: any }> =>
  t.call(method, p, body);

describe('the daemon is ready before the pinpad’s secure session', () => {
  it('health answers while the session opens, a card sale gets 503 PINPAD_OPENING, and once it is open a sale goes through', async () => {
    const early = await call('GET', '/v1/health');
    expect(early.status).toBe(200);
    expect(early.body.status).toBe('degraded');
    expect(early.body.pinpad).toMatchObject({ opening: true, secure: false, status: 'connecting' });
    expect(early.body.problems).toContain('pinpad: opening the secure session (card sales answer 503 PINPAD_OPENING)');

    const refused = await call('POST', '/v1/payments', { amount: 1010, method: 'credit' });
    expect(refused.status).toBe(503);
    expect(refused.body.error.code).toBe('PINPAD_OPENING');
    // Refused before the engine: nothing journaled.
    expect(t.journal.list({ limit: 10 })).toEqual([]);

    await t.pinpadOpened;
    const later = await call('GET', '/v1/health');
    expect(later.body.pinpad).toMatchObject({ opening: false, secure: true, connected: true });

    const sale = await call('POST', '/v1/payments', { amount: 1010, method: 'credit' });
    expect(sale.status).toBe(202);
    let view = sale.body;
    for (let i = 0; i < 800 && !['confirmed', 'declined', 'failed'].includes(view.status); i++) {
      await new Promise((r) => setTimeout(r, 25));
      view = (await call('GET', `/v1/payments/${sale.body.id}`)).body;
    }
    expect(view.status).toBe('confirmed');
  }, 60_000);
});
