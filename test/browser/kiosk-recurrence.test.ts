import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDaemon } from '../helpers/daemon.js';
import { tempDirForFile } from '../helpers/temp-dir.js';
import { cardOnPage, launch, listPayments, pageErrors, snap, typingSteps, ws15Env } from './browser.js';

/**
 * The subscription kiosk (`kiosk.html?recurrence=Monthly&amount=…`) on the real page (headless
 * chromium), on the kiosk's own token (`kiosk-token`), against a real daemon on the embedded default
 * (`cardNotPresent: ecommerce`, the sandbox's e-commerce host, the virtual pinpad taking the typed
 * keys): the customer writes the name on the card, types the card as the pinpad's prompts say, and the
 * kiosk shows the recurrence as the host shows it. Then on `webservice15`, which schedules none (501
 * CNP_NOT_OFFERED before anything is typed): the flow out of service, in Portuguese and English. The
 * page's text, markup and fields never hold a typed digit.
 */
let t: Awaited<ReturnType<typeof startTestDaemon>>;
let b: Awaited<ReturnType<typeof launch>>;
const dir = tempDirForFile('omnipos-kiosk-rec-');
const daemon = async (env: Record<string, string>): Promise<void> => {
  t = await startTestDaemon({ env: { OMNIPOS_TERMINAL__MODE: 'unattended', ...env } });
  // Nobody types on the virtual pinpad but this test (its default types "12345" after 50 ms).
  t.pinpad.typingMs = null;
};
beforeAll(async () => {
  [, b] = await Promise.all([daemon({ OMNIPOS_CARD_NOT_PRESENT__KIND: 'ecommerce' }), launch()]);
}, 120_000);
afterAll(async () => {
  await b?.close();
  await t?.stop();
});

// The sandbox's e-commerce host chooses by the last digit (ecom:388-408): 1 authorized.
const CARD = { number: '4111111111111111', month: '07', year: '2031', code: '853' };
const kioskToken = (): string => readFileSync(path.join(t.config.stateDir, 'kiosk-token'), 'utf8').trim();
const screen = (name: string) => `body[data-screen="${name}"]`;

async function open(page: Page): Promise<void> {
  await page.goto('about:blank');
  await page.goto(`${t.apiUrl}/screens/kiosk.html?recurrence=Monthly&amount=9990&healthMs=300#token=${kioskToken()}`);
  await page.waitForSelector(screen('idle'));
}

/** What of the typed card the page's text, markup or fields hold (nothing, or the test fails). */
const scan = (page: Page, card = CARD): Promise<string[]> => cardOnPage(page, card);

describe('the subscription kiosk (e-commerce API)', () => {
  it("on the kiosk's token: the name, the card typed as the pinpad asks, the recurrence shown as the host shows it", async () => {
    const { page } = b;
    // While the first charge is answered, its recurrence is 409 NOT_ALLOWED: the kiosk asks again.
    const errors = pageErrors(page, [/^\/v1\/card-not-present\/recurrences\/\d+$/]);
    await open(page);
    expect(await page.textContent('#start')).toBe('Toque para assinar');
    await page.click('#start');
    await page.waitForSelector(screen('subscribe'));
    expect(await page.textContent('#subscribe-offer')).toMatch(/^R\$\s99,90 — Mensal$/);
    await page.fill('#subscribe-holder', 'Ána Silva');
    await snap(page, 'kiosk-recurrence-1-offer');
    await page.click('#subscribe-go');
    for (const [prompt, keys, words] of typingSteps(CARD)) {
      // The pinpad asks, the event reaches the kiosk's own stream, the page says it; then the keys.
      await page.waitForSelector(`#prompt[data-prompt=${prompt}]`, { timeout: 15_000 });
      expect(await page.textContent('#prompt')).toMatch(words);
      expect(await scan(page)).toEqual([]);
      type(keys);
    }
    await page.waitForSelector(screen('result'), { timeout: 30_000 });
    expect(await page.textContent('#result-text')).toMatch(/^Assinatura ativa — Mensal, próxima cobrança \S+$/);
    await snap(page, 'kiosk-recurrence-2-active');
    expect(await scan(page)).toEqual([]);
    // The daemon holds it as the kiosk's sale with its recurrence; the holder went as printed on the card.
    const [first] = await listPayments(t.apiUrl, t.token);
    const read = await fetch(`${t.apiUrl}/v1/card-not-present/recurrences/${first!.id}`, {
      headers: { authorization: `Bearer ${kioskToken()}` },
    });
    expect(await read.json()).toMatchObject({ id: first!.id, status: 'active', interval: 'monthly', amount: 9990 });
    expect(errors).toEqual([]);
  });
});

// The webservice 1.5 on its own listener: the manual's test store and key (ws15:1528).
describe('the subscription kiosk on the webservice 1.5 (it schedules none)', () => {
  beforeAll(async () => {
    await t.stop();
    await daemon(ws15Env(dir));
  }, 120_000);

  it('the flow out of service, in Portuguese then English, nothing typed nor journaled', async () => {
    const { page } = b;
    const errors = pageErrors(page, [/^\/v1\/card-not-present\/recurrences$/]);
    await open(page);
    await page.click('#start');
    await page.fill('#subscribe-holder', 'ANA SILVA');
    await page.click('#subscribe-go');
    await page.waitForSelector(screen('out-of-service'));
    expect(await page.getAttribute('body', 'data-out-of-service')).toBe('recurrence-not-offered');
    expect(await page.textContent('#out-of-service-detail')).toBe('Assinaturas indisponíveis neste terminal.');
    await page.click('#lang');
    expect(await page.textContent('#out-of-service-detail')).toBe('Subscriptions are not available at this terminal.');
    await snap(page, 'kiosk-recurrence-3-not-offered');
    // Health says the terminal is well; the flow stays out of service (a health turn is 300 ms).
    await page.waitForTimeout(900);
    expect(await page.getAttribute('body', 'data-screen')).toBe('out-of-service');
    expect(await listPayments(t.apiUrl, t.token)).toEqual([]);
    expect(errors).toEqual([]);
  });
});

const type = (keys: string): void => t.pinpad.type(keys);
