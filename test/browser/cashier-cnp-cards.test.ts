import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { supervisorPassword } from '../../src/cli/void.js';
import { startTestDaemon } from '../helpers/daemon.js';
import { tempDirForFile } from '../helpers/temp-dir.js';
import { cardOnPage, launch, pageErrors, snap, ws15Env } from './browser.js';

/**
 * The cashier's saved cards and recurrences on the real page (headless chromium) against a real daemon
 * on the embedded default: on `cardNotPresent: ecommerce`, a saved card listed by its brand and masked
 * number, a sale by it, a recurrence by it and one typed on the pinpad, each shown as the host shows
 * it, the card removed only with the supervisor's password; on `webservice15`, the recurrence refused
 * by name (501 CNP_NOT_OFFERED) in Portuguese and English. The page's text, markup and fields never
 * hold a typed digit nor a token.
 */
let t: Awaited<ReturnType<typeof startTestDaemon>>;
let b: Awaited<ReturnType<typeof launch>>;
const dir = tempDirForFile('omnipos-pw-');
const tokens: string[] = [];

async function daemon(env: Record<string, string>): Promise<void> {
  t = await startTestDaemon({ env });
  t.pinpad.typingMs = null;
  const pw = path.join(dir, 'pw');
  writeFileSync(pw, 'sup97531\n');
  const ctx = {
    out: () => undefined,
    err: () => undefined,
    env: { OMNIPOS_STATE_DIR: t.config.stateDir },
  };
  expect(await supervisorPassword.run(['--from-file', pw], ctx)).toBe(0);
}

beforeAll(async () => {
  [, b] = await Promise.all([daemon({ OMNIPOS_CARD_NOT_PRESENT__KIND: 'ecommerce' }), launch()]);
}, 120_000);
afterAll(async () => {
  await b?.close();
  await t?.stop();
});

// The sandbox's e-commerce host chooses by the last digit (ecom:388-408): 1 authorized.
const CARD = { number: '4111111111111111', month: '07', year: '2031', code: '853' };
const WS15_CARD = { number: '4012001038443335', month: '05', year: '2031', code: '123' };
const typeCard = (c: typeof CARD): void => [c.number, c.month, c.year, c.code].forEach((k) => t.pinpad.type(k));

/** A card saved at the host through the API (typed on the virtual pinpad); its id, its token noted for the scan. */
async function saveCard(c: typeof CARD, brand?: string): Promise<number> {
  typeCard(c);
  const r = await fetch(`${t.apiUrl}/v1/card-not-present/cards`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ holder: 'ANA SILVA', ...(brand ? { brand } : {}) }),
  });
  expect(r.status).toBe(201);
  const id = ((await r.json()) as { id: number }).id;
  tokens.push(t.savedCards.reveal(id)!.token);
  return id;
}

async function open(page: Page): Promise<void> {
  await page.goto('about:blank');
  await page.goto(`${t.apiUrl}/screens/cashier.html#token=${t.token}`);
  await page.click('#cnp-open');
  await page.waitForSelector('#cnp-form:not([hidden])');
}

/** What of the typed card or a token the page's text, markup or fields hold (nothing, or the test fails). */
const scan = (page: Page, card = CARD): Promise<string[]> => cardOnPage(page, card, tokens);

describe("the cashier's saved cards and recurrences (e-commerce API)", () => {
  it('a saved card listed by brand and masked number; a sale by it, nothing typed', async () => {
    const { page } = b;
    const errors = pageErrors(page);
    const id = await saveCard(CARD);
    await open(page);
    const row = `#cnp-cards tr[data-id="${id}"]`;
    await page.waitForSelector(row);
    expect((await page.textContent(row))?.replace(/\s+/g, ' ')).toMatch(new RegExp(`^${id}Visa411111\\*{6}1111`));
    await page.fill('#cnp-amount', '25,00');
    await page.click(`${row} button[data-i18n="cnp.card.sell"]`);
    await page.waitForSelector('#cnp-result:not([hidden])', { timeout: 30_000 });
    expect(await page.textContent('#cnp-result')).toBe('Aprovada — 411111******1111');
    await snap(page, 'cashier-cnp-cards-1-sold');
    expect(await scan(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('a recurrence by the saved card, then one typed on the pinpad: each shown as its host shows it', async () => {
    const { page } = b;
    const errors = pageErrors(page);
    const id = await saveCard(CARD);
    await open(page);
    await page.waitForSelector(`#cnp-recurrence-card option[value="${id}"]`, { state: 'attached' });
    await page.fill('#cnp-amount', '89,90');
    await page.selectOption('#cnp-recurrence-card', String(id));
    await page.selectOption('#cnp-interval', 'monthly');
    await page.click('#cnp-recurrence-create');
    await page.waitForSelector('#cnp-recurrence[data-status=active]', { timeout: 30_000 });
    expect(await page.textContent('#cnp-recurrence')).toMatch(/^Recorrência \S+: ativa, Mensal, próxima cobrança \S+/);
    await snap(page, 'cashier-cnp-cards-2-recurrence');
    await page.selectOption('#cnp-recurrence-card', '');
    await page.fill('#cnp-holder', 'ANA SILVA');
    await page.selectOption('#cnp-interval', 'annual');
    typeCard(CARD);
    await page.click('#cnp-recurrence-create');
    await page.waitForSelector('#cnp-recurrence[data-status=active]', { timeout: 30_000 });
    await page.waitForFunction(() =>
      (globalThis as unknown as { document: { getElementById(id: string): { textContent: string } } }).document
        .getElementById('cnp-recurrence')
        .textContent.includes('Anual'),
    );
    await page.click('#lang');
    expect(await page.textContent('#cnp-recurrence')).toMatch(/^Recurrence \S+: active, Yearly, next charge \S+/);
    await page.click('#lang');
    expect(await scan(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("a saved card removed only with the supervisor's password", async () => {
    const { page } = b;
    const errors = pageErrors(page, [/^\/v1\/card-not-present\/cards\/\d+$/]);
    const id = await saveCard(CARD);
    await open(page);
    const row = `#cnp-cards tr[data-id="${id}"]`;
    await page.waitForSelector(row);
    await page.fill('#cnp-supervisor-password', '');
    await page.click(`${row} button[data-i18n="cnp.card.remove"]`);
    await page.waitForSelector('#cnp-cards-message[data-code=SUPERVISOR_REQUIRED]');
    expect(await page.textContent('#cnp-cards-message')).toBe(
      'Não foi possível: Senha do supervisor ausente ou incorreta',
    );
    await page.fill('#cnp-supervisor-password', 'sup97531');
    await page.click(`${row} button[data-i18n="cnp.card.remove"]`);
    await page.waitForSelector(`${row}`, { state: 'detached' });
    expect(await page.textContent('#cnp-cards-message')).toBe(`Cartão salvo ${id} removido`);
    expect(t.savedCards.reveal(id)).toBeUndefined();
    expect(await scan(page)).toEqual([]);
    expect(errors).toEqual([]);
  });
});

describe("the cashier's recurrence on the webservice 1.5 (it schedules none)", () => {
  beforeAll(async () => {
    await t.stop();
    await daemon(ws15Env(dir));
  }, 120_000);

  it('its saved card listed; a recurrence refused by name, in Portuguese then English, nothing typed', async () => {
    const { page } = b;
    const errors = pageErrors(page, [/^\/v1\/card-not-present\/recurrences$/]);
    const id = await saveCard(WS15_CARD, 'Visa');
    await open(page);
    await page.waitForSelector(`#cnp-cards tr[data-id="${id}"]`);
    expect(await page.textContent(`#cnp-cards tr[data-id="${id}"]`)).toMatch(/401200\*{6}3335/);
    await page.fill('#cnp-amount', '10,00');
    await page.selectOption('#cnp-recurrence-card', String(id));
    await page.click('#cnp-recurrence-create');
    await page.waitForSelector('#cnp-recurrence[data-code=CNP_NOT_OFFERED]');
    expect(await page.textContent('#cnp-recurrence')).toBe('Não foi possível: O adquirente não oferece esta operação');
    await page.click('#lang');
    expect(await page.textContent('#cnp-recurrence')).toBe(
      'Could not do it: The acquirer does not offer this operation',
    );
    await page.click('#lang');
    await snap(page, 'cashier-cnp-cards-3-ws15-refused');
    expect(await scan(page, WS15_CARD)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
