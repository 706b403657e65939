import { readFileSync } from 'node:fs';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { createLogger } from '../../../src/core/log/index.js';
import { startDaemon, type Daemon } from '../../../src/main.js';
import { VirtualPinpad } from '../../../src/sim/pinpad/index.js';
import { tempDirForFile } from '../../helpers/temp-dir.js';

// `omnipos run` is ready before the pinpad's first secure session is open (a PPC930's secure OPN
// takes ~3 s): here a pinpad that holds its OPN answer 6 s (under the driver's 10 s for a
// non-blocking command's answer), as a separate part on loopback TCP.
const OPN_HELD_MS = 6000;

let daemon: Daemon;
let pinpad: VirtualPinpad;
let token: string;
const stateDir = tempDirForFile('omnipos-pinpad-bg-');

beforeAll(async () => {
  pinpad = new VirtualPinpad({ tcpPort: 0 });
  await pinpad.start();
  pinpad.inject({ kind: 'delay', ms: OPN_HELD_MS, count: 1 });
  const config = loadConfig({
    env: {
      OMNIPOS_STATE_DIR: stateDir,
      OMNIPOS_PINPAD__DEVICE__KIND: 'tcp',
      OMNIPOS_PINPAD__DEVICE__HOST: '127.0.0.1',
      OMNIPOS_PINPAD__DEVICE__PORT: String(pinpad.port),
    },
  });
  daemon = await startDaemon({
    config,
    log: createLogger({ level: 'silent' }),
    env: {},
    sandboxPort: 0,
    apiPort: 0,
    pinpadAtStart: 'background',
  });
  token = readFileSync(daemon.apiTokenFile, 'utf8').trim();
}, 60_000);
afterAll(async () => {
  await daemon?.stop();
  await pinpad?.stop();
});

async function call(method: 'GET' | 'POST', p: string, body?: unknown) {
  const res = await request(`${daemon.apiUrl}${p}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.body.text();
  return { status: res.statusCode, body: text ? JSON.parse(text) : undefined };
}

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
    expect(daemon.journal.list({ limit: 10 })).toEqual([]);

    await daemon.pinpadOpened;
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
