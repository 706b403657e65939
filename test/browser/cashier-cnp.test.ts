import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { supervisorPassword } from '../../src/cli/void.js';
import { TEST_STORE, WS15_PATH } from '../../src/sandbox/index.js';
import { startTestDaemon } from '../helpers/daemon.js';
import { tempDirForFile } from '../helpers/temp-dir.js';
import { cardOnPage, launch, pageErrors, snap, typingSteps } from './browser.js';

/**
 * The cashier's sales without the card present on the real page (headless chromium) against a real
 * daemon on the embedded default (`cardNotPresent: ecommerce`, the sandbox's e-commerce host, the
 * virtual pinpad taking the typed keys): a phone order whose screen follows the pinpad's prompts one
 * by one, a pre-authorization captured in part and one voided with the supervisor's password, the
 * refusals by their code's text in both languages; and no typed digit in the page's text or DOM.
 * Then the same page on `cardNotPresent: webservice15` (its own listener in the embedded sandbox), which
 * has no BIN lookup: the cashier is asked for the brand.
 */
let t: Awaited<ReturnType<typeof startTestDaemon>>;
let b: Awaited<ReturnType<typeof launch>>;
const pwDir = tempDirForFile('omnipos-pw-');
beforeAll(async () => {
  [t, b] = await Promise.all([startTestDaemon({ env: { OMNIPOS_CARD_NOT_PRESENT__KIND: 'ecommerce' } }), launch()]);
  // Nobody types on the virtual pinpad but this test (its default types "12345" after 50 ms).
  t.pinpad.typingMs = null;
  const pw = path.join(pwDir, 'pw');
  writeFileSync(pw, 'sup97531\n');
  const env = { OMNIPOS_STATE_DIR: t.config.stateDir };
  expect(await supervisorPassword.run(['--from-file', pw], { out: () => undefined, err: () => undefined, env })).toBe(
    0,
  );
}, 120_000);
afterAll(async () => {
  await b?.close();
  await t?.stop();
});

// The sandbox's e-commerce host chooses by the last digit (ecom:388-408): 1 authorized.
const CARD = { number: '4111111111111111', month: '07', year: '2031', code: '853' };

const type = (keys: string): void => t.pinpad.type(keys);

async function open(page: Page, token = t.token): Promise<void> {
  await page.goto('about:blank');
  await page.goto(`${t.apiUrl}/screens/cashier.html#token=${token}`);
  await page.click('#cnp-open');
  await page.waitForSelector('#cnp-form:not([hidden])');
}

/** What of the typed card the page's text, markup or fields hold (nothing, or the test fails). */
const scan = (page: Page, card = CARD): Promise<string[]> => cardOnPage(page, card);

async function fillSale(page: Page, o: { amount: string; holder: string; preauth?: boolean }): Promise<void> {
  await page.fill('#cnp-amount', o.amount);
  await page.fill('#cnp-holder', o.holder);
  await page.check(`input[name=cnp-kind][value=${o.preauth ? 'preauth' : 'sale'}]`);
}

async function result(page: Page): Promise<string> {
  await page.waitForSelector('#cnp-result:not([hidden])', { timeout: 30_000 });
  return (await page.textContent('#cnp-result')) ?? '';
}

describe("the cashier's sales without the card present", () => {
  it('a phone order: the screen follows each prompt of the pinpad, then the outcome with the masked number', async () => {
    const { page } = b;
    const errors = pageErrors(page);
    await open(page);
    await fillSale(page, { amount: '19,90', holder: 'Ána Silva' });
    await page.click('#cnp-charge');
    for (const [prompt, keys, words] of typingSteps(CARD)) {
      // The pinpad asks, the event reaches the page, the page says it; only then are the keys typed.
      await page.waitForSelector(`#cnp-prompt[data-prompt=${prompt}]`, { timeout: 15_000 });
      expect(await page.textContent('#cnp-prompt')).toMatch(words);
      if (prompt === 'card-number') await snap(page, 'cashier-cnp-1-type-number');
      expect(await scan(page)).toEqual([]);
      type(keys);
    }
    expect(await result(page)).toMatch(/^Aprovada — 411111\*{6}1111$/);
    await snap(page, 'cashier-cnp-2-approved');
    expect(await scan(page)).toEqual([]);
    // Its receipt, printed as every receipt is (the reprint route, the ESC/POS printer): "VENDA DIGITADA", masked.
    const printer = t.printer;
    const before = printer.receipts.length;
    await page.click('#cnp-reprint');
    await page.locator('#cnp-prompt', { hasText: 'Comprovante impresso' }).waitFor({ timeout: 15_000 });
    expect(printer.receipts.length).toBe(before + 1);
    expect(printer.lastReceipt!.text).toContain('VENDA DIGITADA');
    expect(printer.lastReceipt!.text).toMatch(/411111\*{6}1111/);
    const paper = printer.lastReceipt!.text;
    expect([CARD.number, `${CARD.month}/${CARD.year}`, `${CARD.month}/31`].filter((x) => paper.includes(x))).toEqual(
      [],
    );
    expect(paper).not.toMatch(new RegExp(`\\b${CARD.code}\\b`));
    expect(errors).toEqual([]);
  });

  it('a pre-authorization: listed open, captured in part; another voided only with the supervisor password', async () => {
    const { page } = b;
    const errors = pageErrors(page, [/^\/v1\/card-not-present\/sales\/\d+\/void$/]);
    const preauth = async (amount: string): Promise<string> => {
      await open(page);
      await fillSale(page, { amount, holder: 'ANA SILVA', preauth: true });
      for (const k of [CARD.number, CARD.month, CARD.year, CARD.code]) type(k);
      await page.click('#cnp-charge');
      expect(await result(page)).toMatch(/^Pré-autorizada/);
      const id = (await page.getAttribute('#cnp-preauths tbody tr:first-child', 'data-id')) ?? '';
      expect(id).toMatch(/^\d+$/);
      return id;
    };
    const captured = await preauth('30,00');
    await snap(page, 'cashier-cnp-3-preauth-listed');
    await page.fill(`#cnp-preauths tr[data-id="${captured}"] .cnp-capture-amount`, '12,50');
    await page.click(`#cnp-preauths tr[data-id="${captured}"] button[data-i18n="cnp.capture"]`);
    await page.waitForSelector('#cnp-message[data-state=captured]');
    expect(await page.textContent('#cnp-message')).toBe(`Pré-autorização ${captured} capturada`);
    expect(await page.$(`#cnp-preauths tr[data-id="${captured}"]`)).toBeNull();
    const read = (id: string) =>
      fetch(`${t.apiUrl}/v1/payments/${id}`, { headers: { authorization: `Bearer ${t.token}` } }).then(
        (r) => r.json() as Promise<Record<string, unknown>>,
      );
    expect(await read(captured)).toMatchObject({ state: 'captured', amount: 3000, capturedAmount: 1250 });

    const voided = await preauth('40,00');
    const row = `#cnp-preauths tr[data-id="${voided}"]`;
    await page.click(`${row} button[data-i18n="cnp.void"]`);
    await page.waitForSelector('#cnp-message[data-code=SUPERVISOR_REQUIRED]');
    expect(await page.textContent('#cnp-message')).toBe('Não foi possível: Senha do supervisor ausente ou incorreta');
    await page.fill('#cnp-supervisor-password', 'sup97531');
    await page.click(`${row} button[data-i18n="cnp.void"]`);
    await page.waitForSelector('#cnp-message[data-state=voided]');
    expect(await page.textContent('#cnp-message')).toBe(`Pré-autorização ${voided} cancelada`);
    expect(await read(voided)).toMatchObject({ state: 'voided' });
    await snap(page, 'cashier-cnp-4-voided');
    expect(await scan(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("on the cashier's own token: a phone order following the pinpad's prompts, its pre-authorization listed (not the register's), captured in part", async () => {
    const { page } = b;
    const errors = pageErrors(page);
    const cashier = readFileSync(path.join(t.config.stateDir, 'cashier-token'), 'utf8').trim();
    // The cash register's own pre-authorization, open at the host: the cashier's list must not show it.
    for (const k of [CARD.number, CARD.month, CARD.year, CARD.code]) type(k);
    const theirs = await fetch(`${t.apiUrl}/v1/card-not-present/sales`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${t.token}`,
        'idempotency-key': 'register-preauth',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ amount: 5000, holder: 'ANA SILVA', capture: false }),
    }).then((r) => r.json() as Promise<{ id: number }>);
    const state = async (): Promise<unknown> =>
      (
        await fetch(`${t.apiUrl}/v1/card-not-present/sales/${theirs.id}`, {
          headers: { authorization: `Bearer ${t.token}` },
        }).then((r) => r.json() as Promise<{ state: string }>)
      ).state;
    await expect.poll(state, { timeout: 30_000 }).toBe('authorized');
    await open(page, cashier);
    await fillSale(page, { amount: '19,90', holder: 'ANA SILVA' });
    await page.click('#cnp-charge');
    // The pinpad's prompts reach the cashier's own stream (no row yet: told by the request's key).
    const prompts: [string, string][] = [
      ['card-number', CARD.number],
      ['expiry-month', CARD.month],
      ['expiry-year', CARD.year],
      ['security-code', CARD.code],
    ];
    for (const [prompt, keys] of prompts) {
      await page.waitForSelector(`#cnp-prompt[data-prompt=${prompt}]`, { timeout: 15_000 });
      type(keys);
    }
    expect(await result(page)).toMatch(/^Aprovada — 411111\*{6}1111$/);
    await open(page, cashier);
    await fillSale(page, { amount: '30,00', holder: 'ANA SILVA', preauth: true });
    for (const k of [CARD.number, CARD.month, CARD.year, CARD.code]) type(k);
    await page.click('#cnp-charge');
    expect(await result(page)).toMatch(/^Pré-autorizada/);
    const listed = await page.$$eval('#cnp-preauths tbody tr', (trs) => trs.map((tr) => tr.getAttribute('data-id')));
    expect(listed.length).toBeGreaterThan(0);
    expect(listed).not.toContain(String(theirs.id));
    const mine = listed[0]!;
    await page.fill(`#cnp-preauths tr[data-id="${mine}"] .cnp-capture-amount`, '12,50');
    await page.click(`#cnp-preauths tr[data-id="${mine}"] button[data-i18n="cnp.capture"]`);
    await page.waitForSelector('#cnp-message[data-state=captured]');
    expect(await page.textContent('#cnp-message')).toBe(`Pré-autorização ${mine} capturada`);
    expect(await page.$(`#cnp-preauths tr[data-id="${mine}"]`)).toBeNull();
    const read = await fetch(`${t.apiUrl}/v1/payments/${mine}`, {
      headers: { authorization: `Bearer ${cashier}` },
    });
    expect(await read.json()).toMatchObject({ state: 'captured', amount: 3000, capturedAmount: 1250 });
    expect(await scan(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("refusals by their code's text, Portuguese then English: a wrong check digit, the typing cancelled", async () => {
    const { page } = b;
    const errors = pageErrors(page, [/^\/v1\/card-not-present\/sales$/]);
    await open(page);
    await fillSale(page, { amount: '19,90', holder: 'ANA SILVA' });
    type('4111111111111112');
    await page.click('#cnp-charge');
    await page.waitForSelector('#cnp-error[data-code=CNP_CARD_REFUSED]:not([hidden])', { timeout: 15_000 });
    expect(await page.textContent('#cnp-error')).toBe(
      'Não foi possível: Cartão digitado recusado (número, validade ou produto): digite de novo',
    );
    await page.click('#lang');
    expect(await page.textContent('#cnp-error')).toBe(
      'Could not do it: Typed card refused (number, expiry or product): type it again',
    );
    // Cancelled on the page while the pinpad asks for the number: the request closes, the typing stops.
    await page.click('#cnp-charge');
    await page.waitForSelector('#cnp-prompt[data-prompt=card-number]', { timeout: 15_000 });
    expect(await page.textContent('#cnp-prompt')).toBe('Type the card number on the pinpad');
    await page.click('#cnp-cancel');
    await page.waitForSelector('#cnp-error[data-code=CNP_TYPING_CANCELLED]:not([hidden])');
    expect(await page.textContent('#cnp-error')).toMatch(/^Could not do it: The card was not typed/);
    await page.click('#lang');
    expect(await page.textContent('#cnp-error')).toMatch(/^Não foi possível: O cartão não foi digitado/);
    // The pinpad is free again: the next sale types at once.
    for (const k of [CARD.number, CARD.month, CARD.year, CARD.code]) type(k);
    await page.click('#cnp-charge');
    expect(await result(page)).toMatch(/^Aprovada/);
    expect(await scan(page)).toEqual([]);
    expect(errors).toEqual([]);
  });
});

// The webservice 1.5 on its own listener: the manual's test store and key (ws15:1528), its test card
// (ws15:1512, Visa) and its amount rule (ws15:1530: an amount ending in 00 is authorized).
describe("the cashier's phone order on the webservice 1.5 (no BIN lookup: the brand is the cashier's)", () => {
  const WS15_CARD = { number: '4012001038443335', month: '05', year: '2031', code: '123' };
  beforeAll(async () => {
    await t.stop();
    const keyFile = path.join(pwDir, 'ws15.key');
    writeFileSync(keyFile, `${TEST_STORE.key}\n`, { mode: 0o600 });
    t = await startTestDaemon({
      env: {
        OMNIPOS_CARD_NOT_PRESENT__KIND: 'webservice15',
        OMNIPOS_CARD_NOT_PRESENT__URL: `http://127.0.0.1:0${WS15_PATH}`,
        OMNIPOS_CARD_NOT_PRESENT__AFFILIATION: TEST_STORE.affiliation,
        OMNIPOS_CARD_NOT_PRESENT__KEY_FILE: keyFile,
      },
    });
    t.pinpad.typingMs = null;
  }, 120_000);

  it('without the brand: asked for it, nothing sent; with Visa: approved', async () => {
    const { page } = b;
    const errors = pageErrors(page, [/^\/v1\/card-not-present\/sales$/]);
    await open(page);
    await fillSale(page, { amount: '10,00', holder: 'ANA SILVA' });
    const typeCard = () => [WS15_CARD.number, WS15_CARD.month, WS15_CARD.year, WS15_CARD.code].forEach(type);
    typeCard();
    await page.click('#cnp-charge');
    await page.waitForSelector('#cnp-error[data-code=INVALID_FIELD]:not([hidden])', { timeout: 15_000 });
    expect(await page.textContent('#cnp-error')).toBe(
      'Este adquirente não consulta o cartão: escolha a bandeira e digite de novo',
    );
    expect(
      await page.evaluate(
        () => (globalThis as unknown as { document: { activeElement: { id: string } } }).document.activeElement.id,
      ),
    ).toBe('cnp-brand');
    await page.selectOption('#cnp-brand', 'Visa');
    typeCard();
    await page.click('#cnp-charge');
    // The webservice 1.5 echoes no masked number: the row keeps the one the pinpad's reader made (first 6, last 4).
    expect(await result(page)).toBe(`Aprovada — ${WS15_CARD.number.slice(0, 6)}******${WS15_CARD.number.slice(-4)}`);
    await snap(page, 'cashier-cnp-5-ws15-approved');
    expect(await scan(page, WS15_CARD)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
