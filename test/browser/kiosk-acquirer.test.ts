import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDaemon, type TestDaemon } from '../helpers/daemon.js';
import { launch, listPayments, pageErrors, snap } from './browser.js';

/**
 * The kiosk follows GET /v1/health's acquirer.reachable: the acquirer's connections are dropped
 * (a sandbox fault on every request), the daemon's own probe finds it out, the kiosk goes out of
 * service after its small grace; the fault is lifted, the probe hears the host, and the kiosk is
 * back in service on its own — no sale tried, no payment made.
 */
let running: TestDaemon;
let token: string;
let t: TestDaemon | undefined;
let b: Awaited<ReturnType<typeof launch>>;
beforeAll(async () => {
  [t, b] = await Promise.all([
    startTestDaemon({
      prefix: 'omnipos-kiosk-acq-',
      env: { OMNIPOS_TERMINAL__MODE: 'unattended' },
      deps: { acquirerProbe: { slowMs: 300, fastMinMs: 200, fastMaxMs: 400, timeoutMs: 1000 } },
    }),
    launch(),
  ]);
  running = t;
  ({ token } = t);
}, 60_000);
afterAll(async () => {
  await b?.close();
  await t?.stop();
});

const DROP = { reset: 'before', times: 1_000_000 } as const;

describe('the kiosk and the acquirer', () => {
  it('out of service after the grace while health says unreachable; back in service as soon as the probe hears the host, with no sale', async () => {
    const { page } = b;
    const errors = pageErrors(page);
    const GRACE = 1500;
    await page.goto(
      `${running.apiUrl}/screens/kiosk.html?amount=2510&healthMs=200&acquirerDownMs=${GRACE}#token=${token}`,
    );
    await page.waitForSelector('body[data-screen="idle"]');
    const payments = (await listPayments(running.apiUrl, token)).length;

    running.sandbox.sandbox.faults.set('omniToken', DROP);
    const down = Date.now();
    await page.waitForSelector('body[data-screen="out-of-service"]', { timeout: 15_000 });
    const outAfter = Date.now() - down;
    expect(await page.getAttribute('body', 'data-out-of-service')).toBe('acquirer');
    // not before the grace: the probe's first failure plus acquirerDownMs of unreachable readings
    expect(outAfter).toBeGreaterThanOrEqual(GRACE);
    await snap(page, 'kiosk-12-acquirer-probed-down');

    running.sandbox.sandbox.faults.clear();
    const up = Date.now();
    await page.waitForSelector('body[data-screen="idle"]', { timeout: 10_000 });
    const backAfter = Date.now() - up;
    // back with the probe's next answer (its pause is at most 400 ms here) and one health read; a screen that
    // never came back is caught by the wait above (no bound on elapsed time: tests never fail on a timing)
    expect((await listPayments(running.apiUrl, token)).length).toBe(payments);
    expect(errors).toEqual([]);
    console.log(
      `kiosk: out of service ${outAfter} ms after the acquirer went away (grace ${GRACE} ms); back ${backAfter} ms after it returned`,
    );
  }, 60_000);
});
