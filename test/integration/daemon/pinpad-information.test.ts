import { request, type Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Daemon } from '../../../src/main.js';
import { startTestDaemon, type TestDaemon } from '../../helpers/daemon.js';

/**
 * A sale's `PinPadInformation` names the pinpad that read the card — the serial number and the
 * readers its GIX answer gave — read off the wire by an interceptor on the daemon's acquirer
 * dispatcher (it used to be a constant whatever pinpad was plugged in).
 */
let daemon: Daemon;
let t: TestDaemon | undefined;
const bodies: string[] = [];
const tap: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (opts, handler) => {
  if (typeof opts.body === 'string') bodies.push(opts.body);
  return dispatch(opts, handler);
};

beforeAll(async () => {
  t = await startTestDaemon({ prefix: 'omnipos-pinpad-info-', deps: { acquirerInterceptors: [tap] } });
  daemon = t.daemon;
}, 60_000);
afterAll(() => t?.stop());

describe("a sale's PinPadInformation", () => {
  it("carries the pinpad's own serial number and readers (GIX), and ReturnDataInfo 00", async () => {
    const token = t!.token;
    const res = await request(`${daemon.apiUrl}/v1/payments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 1010, method: 'credit', receipt: false }),
    });
    const created = (await res.body.json()) as { id: number };
    expect(res.statusCode).toBe(202);
    for (let i = 0; i < 400 && daemon.journal.get(created.id)?.state !== 'confirmed'; i++)
      await new Promise((r) => setTimeout(r, 25));
    expect(daemon.journal.get(created.id)?.state).toBe('confirmed');
    const sale = bodies
      .filter((b) => b.startsWith('{'))
      .map((b) => JSON.parse(b) as { Payment?: { Amount?: number; PinPadInformation?: Record<string, unknown> } })
      .find((b) => b.Payment?.Amount === 1010 && b.Payment.PinPadInformation);
    const profile = daemon.virtualPinpad!.profile;
    expect(profile.serialNumber).not.toBe('');
    expect(sale?.Payment?.PinPadInformation).toEqual({
      TerminalId: daemon.config.values.terminal.terminalId,
      SerialNumber: profile.serialNumber,
      PhysicalCharacteristics: profile.contactless
        ? 'PinPadWithChipReaderWithoutSamAndContactless'
        : 'PinPadWithChipReaderWithoutSamModule',
      ReturnDataInfo: '00',
    });
  });
});
