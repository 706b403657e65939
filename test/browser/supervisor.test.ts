import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { supervisorPassword } from '../../src/cli/void.js';
import { startTestDaemon } from '../helpers/daemon.js';
import { walletPays as walletPaysAt } from '../helpers/wallet-pay.js';
import { launch, pageErrors, snap } from './browser.js';
import { tempDirForFile } from '../helpers/temp-dir.js';

/**
 * The supervisor's operations on the real page (headless chromium) against a real daemon: the
 * day's report, a void refused with a wrong password, a wallet QR void whose cancellation code
 * the page shows and the wallet pays, and the report counting it.
 */

let t: Awaited<ReturnType<typeof startTestDaemon>>;
let b: Awaited<ReturnType<typeof launch>>;
const pwDir = tempDirForFile('omnipos-pw-');
beforeAll(async () => {
  [t, b] = await Promise.all([startTestDaemon(), launch()]);
  const pw = path.join(pwDir, 'pw');
  writeFileSync(pw, 'sup97531\n');
  expect(
    await supervisorPassword.run(['--from-file', pw], {
      out: () => undefined,
      err: () => undefined,
      env: { OMNIPOS_STATE_DIR: t.config.stateDir },
    }),
  ).toBe(0);
}, 60_000);
afterAll(async () => {
  await b?.close();
  await t?.stop();
});

async function api(method: 'GET' | 'POST', p: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${t.apiUrl}${p}`, {
    method,
    headers: {
      authorization: `Bearer ${t.token}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return (await res.json()) as Record<string, unknown>;
}

const walletPays = async (qr: string): Promise<number> => (await walletPaysAt(t.sandbox.urls.wallet, qr)).code;

async function until<T>(what: string, f: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const v = await f();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out: ${what}`);
}

describe("the supervisor's operations", () => {
  it('shows the day report, refuses a wrong password, voids a wallet QR sale by its cancellation code on the page', async () => {
    const { page } = b;
    const errors = pageErrors(page, [/^\/v1\/payments\/\d+\/void$/]);
    const sale = await api('POST', '/v1/payments', { amount: 4200, method: 'wallet-qr', confirmation: 'auto' });
    const code = await until(
      'the sale code',
      async () => (await api('GET', `/v1/payments/${sale.id as number}`)).qrCode as string | undefined,
    );
    expect(await walletPays(code)).toBe(0);
    await until('the sale confirmed', async () =>
      (await api('GET', `/v1/payments/${sale.id as number}`)).status === 'confirmed' ? true : undefined,
    );

    await page.goto(`${t.apiUrl}/screens/supervisor.html#token=${t.token}`);
    await page.waitForSelector('#day-report dd');
    expect(await page.textContent('#day-report')).toMatch(/Vendas1/);

    await page.fill('#supervisor-password', '11111');
    await page.fill('#void-payment', String(sale.id));
    await page.fill('#void-amount', '12,00');
    await page.click('#void-start');
    await page.waitForSelector('#void-status[data-code="SUPERVISOR_REQUIRED"]');

    await page.fill('#supervisor-password', 'sup97531');
    await page.click('#void-start');
    await page.waitForSelector('#void-status[data-status="pending"]');
    await page.waitForSelector('#void-qr:not([hidden])');
    const voidId = Number(await page.getAttribute('#void-status', 'data-id'));
    const shown = await page.getAttribute('#void-qr', 'data-code');
    const v = await api('GET', `/v1/voids/${voidId}`);
    expect(shown).toBe((v.cancellationCode as { qrCode: string }).qrCode);
    expect(v).toMatchObject({ amount: 1200, authorizedBy: 'supervisor-password' });
    await snap(page, 'supervisor-void-qr');

    expect(await walletPays(shown!)).toBe(0);
    await page.waitForSelector('#void-status[data-status="approved"]', { timeout: 15_000 });
    expect(await page.isHidden('#void-qr')).toBe(true);
    // The report counts the void that took effect: R$ 12,00 given back, R$ 30,00 net.
    await expect
      .poll(() => page.textContent('#day-report'), { timeout: 10_000 })
      .toMatch(/Total cancelado\s*R\$\s*12,00/);
    expect(await page.textContent('#day-report')).toMatch(/Líquido\s*R\$\s*30,00/);
    await snap(page, 'supervisor-void-approved');
    expect(errors.filter((e) => !/HTTP 403/.test(e))).toEqual([]);
  }, 90_000);
});
