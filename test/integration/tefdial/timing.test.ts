/**
 * The time from the PDV's request file to `IntPos.Sts` and to the answer, beside the same sale
 * through the HTTP API (POST, then the payment read until it is approved), on one daemon. Figures
 * are printed, never asserted (tests never fail on a timing): `npx vitest run test/integration/tefdial/timing.test.ts`.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestDaemon } from '../../helpers/daemon.js';
import { startTefDaemon, type TefDaemon } from '../../helpers/tef-daemon.js';
import type { TefPdv } from '../../helpers/tef-pdv.js';

let rig: TefDaemon;
let t: TestDaemon;
let pdv: TefPdv;
beforeAll(async () => {
  rig = await startTefDaemon('omnipos-tefdial-timing');
  ({ t, pdv } = rig);
}, 60_000);
afterAll(async () => {
  await rig?.stop();
});

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const fmt = (xs: number[]): string => `median ${median(xs).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms`;

it('TEF Dial beside the HTTP API, the same sale 10 times each', async () => {
  const sts: number[] = [];
  const tefDone: number[] = [];
  const apiDone: number[] = [];
  for (let i = 0; i < 10; i++) {
    const x = await pdv.crt(String(8000 + i), 1000 + i);
    expect(x.response!['009-000']).toBe('0');
    sts.push(x.msToStatus);
    tefDone.push(x.msToResponse!);
    await pdv.decide('CNF', String(8100 + i), x.response!);

    const t0 = performance.now();
    const started = await t.call('POST', '/v1/payments', {
      amount: 1000 + i,
      method: 'credit',
      confirmation: 'ecr',
      receipt: false,
    });
    const id = started.body.id as number;
    for (;;) {
      const v = await t.call('GET', `/v1/payments/${id}`);
      if (v.body.status !== 'pending') break;
      await new Promise((r) => setTimeout(r, 2));
    }
    apiDone.push(performance.now() - t0);
    await t.call('POST', `/v1/payments/${id}/confirm`);
  }
  process.stdout.write(
    `TEF Dial: request → IntPos.Sts ${fmt(sts)}; request → answer ${fmt(tefDone)}\nHTTP API: POST → approved ${fmt(apiDone)}\n`,
  );
}, 120_000);
