import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDaemon } from '../helpers/daemon.js';
import { decodePng } from '../helpers/png-decode.js';
import { decodeQrRgba } from '../helpers/qr-decode.js';
import { clearCardData } from '../helpers/scan-card-data.js';
import { launch, listPayments, pageErrors, snap } from './browser.js';

let t: Awaited<ReturnType<typeof startTestDaemon>>;
let b: Awaited<ReturnType<typeof launch>>;
beforeAll(async () => {
  [t, b] = await Promise.all([startTestDaemon(), launch()]);
});
afterAll(async () => {
  await b?.close();
  await t?.stop();
});

/** The page's own marks: POST sent → first pinpad prompt event shown (undefined: none came). */
async function pinpadPromptMs(page: Page): Promise<number | undefined> {
  return page.evaluate(() => {
    const perf = (globalThis as unknown as { performance: { getEntriesByName(n: string): { startTime: number }[] } })
      .performance;
    const start = perf.getEntriesByName('omnipos:start').at(-1)?.startTime;
    const first = perf.getEntriesByName('omnipos:first-prompt').at(-1)?.startTime;
    return start === undefined || first === undefined || first < start ? undefined : first - start;
  });
}

describe('the cashier screen against a real daemon (embedded sandbox, virtual pinpad and printer)', () => {
  it('sells from the amount to the receipt: prompts from the event stream, approved, the receipt on screen', async () => {
    const { page } = b;
    // The receipts' text route may not be served yet: the screen falls back to the payment's fields.
    const errors = pageErrors(page, [/^\/v1\/payments\/\d+\/receipt$/]);
    let bytes = 0;
    page.on('response', (r) => {
      if (new URL(r.url()).pathname.startsWith('/screens/') && r.status() === 200)
        void r.body().then(
          (body) => (bytes += body.length),
          () => undefined,
        );
    });
    await page.goto(`${t.apiUrl}/screens/cashier.html#token=${t.token}`);
    // The token left the address bar for the session's storage.
    expect(new URL(page.url()).hash).toBe('');
    expect(
      await page.evaluate(() =>
        (globalThis as unknown as { sessionStorage: { getItem(key: string): string | null } }).sessionStorage.getItem(
          'omnipos.token',
        ),
      ),
    ).toBe(t.token);
    await page.fill('#amount', '25,10');
    await page.check('input[value=credit]');
    await page.fill('#installments', '1');
    await snap(page, 'cashier-1-amount');
    const clicked = Date.now();
    await page.click('#charge');
    // The first prompt the daemon sent (a state or prompt event), not the page's own placeholder.
    await page.waitForSelector('#prompt[data-source=state], #prompt[data-source=prompt]');
    const firstPromptMs = Date.now() - clicked;
    await snap(page, 'cashier-2-prompt');
    await page.waitForSelector('#result:not([hidden])', { timeout: 20_000 });
    const finishedMs = Date.now() - clicked;
    expect(await page.textContent('#result')).toMatch(/Aprovada/);
    await page.waitForSelector('#receipt:not([hidden])');
    const receipt = (await page.textContent('#receipt')) ?? '';
    const paid = (await listPayments(t.apiUrl, t.token, 'confirmed'))[0]!;
    expect(paid.amount).toBe(2510);
    // The receipt shows the sale's amount and authorization, and the card masked (no full PAN).
    expect(receipt).toContain('25,10');
    if (paid.authorizationCode) expect(receipt).toContain(paid.authorizationCode);
    if (paid.card) expect(receipt).toContain(paid.card.maskedPan);
    const html = await page.content();
    for (const clear of clearCardData()) expect(html).not.toContain(clear);
    // The virtual printer printed it too.
    expect(t.printer.receipts.length ?? 0).toBeGreaterThan(0);
    await snap(page, 'cashier-3-receipt');
    const promptMs = await pinpadPromptMs(page);
    expect(promptMs).toBeDefined();
    expect(errors).toEqual([]);
    console.log(
      `cashier: page weight ${bytes} bytes; first event on screen ${firstPromptMs} ms after Charge; first pinpad prompt event ${promptMs?.toFixed(0)} ms after the POST; approved with receipt ${finishedMs} ms`,
    );
  });

  it('asks "did the receipt come out?" when the paper ran out mid-receipt; Sim confirms; Reimprimir prints a second copy', async () => {
    const { page } = b;
    const errors = pageErrors(page);
    const printer = t.printer;
    // A fresh load (the same address with only a fragment would not reload the page).
    await page.goto('about:blank');
    await page.goto(`${t.apiUrl}/screens/cashier.html#token=${t.token}`);
    await page.fill('#amount', '25,10');
    await page.check('input[value=credit]');
    printer.loadPaper(3);
    await page.click('#charge');
    await page.waitForSelector('#question:not([hidden])', { timeout: 20_000 });
    expect(await page.textContent('#question p')).toBe('O comprovante saiu?');
    await snap(page, 'cashier-4-receipt-question');
    printer.loadPaper();
    await page.click('#printed-yes');
    await page.waitForSelector('#result:not([hidden])', { timeout: 20_000 });
    expect(await page.textContent('#result')).toMatch(/Aprovada/);
    const before = printer.receipts.length;
    await page.click('#reprint');
    for (let i = 0; i < 200 && printer.receipts.length === before; i++) await new Promise((r) => setTimeout(r, 25));
    expect(printer.receipts.length).toBe(before + 1);
    await snap(page, 'cashier-5-after-reprint');
    expect(errors).toEqual([]);
  });

  it('a wallet QR sale: the code on screen, then Cancelar withdraws it', async () => {
    const { page } = b;
    const errors = pageErrors(page);
    await page.goto('about:blank');
    await page.goto(`${t.apiUrl}/screens/cashier.html#token=${t.token}`);
    await page.fill('#amount', '26,10');
    await page.check('input[value=wallet-qr]');
    expect(await page.isVisible('#installments-row')).toBe(false);
    await page.click('#charge');
    await page.waitForSelector('#qr:not([hidden])', { timeout: 10_000 });
    await snap(page, 'cashier-6-qr');
    await page.click('#cancel');
    await page.waitForSelector('#result:not([hidden])', { timeout: 10_000 });
    expect(await page.textContent('#result')).toMatch(/Cancelada/);
    const list = await listPayments(t.apiUrl, t.token);
    expect(list[0]).toMatchObject({ method: 'wallet-qr', amount: 2610, status: 'cancelled' });
    expect(errors).toEqual([]);
  });

  it("a Pix sale: the payer's name and CPF, the code on screen read back from its pixels, then Cancelar", async () => {
    const { page } = b;
    const errors = pageErrors(page);
    await page.goto('about:blank');
    await page.goto(`${t.apiUrl}/screens/cashier.html#token=${t.token}`);
    await page.fill('#amount', '12,00');
    await page.check('input[value=pix]');
    expect(await page.isVisible('#payer')).toBe(true);
    await page.fill('#payer-name', 'Maria da Silva');
    await page.fill('#payer-document', '529.982.247-25');
    await page.click('#charge');
    await page.waitForSelector('#qr:not([hidden])', { timeout: 15_000 });
    const png = decodePng(await page.locator('#qr').screenshot());
    const shown = decodeQrRgba(png.rgba, png.width, png.height);
    const pending = (await listPayments(t.apiUrl, t.token, 'pending'))[0];
    expect(pending).toMatchObject({ method: 'pix', amount: 1200 });
    expect(shown).toBe(pending?.qrCode);
    // A Pix sale never asks for a card.
    expect(await page.textContent('#prompt')).not.toMatch(/cartão/i);
    await snap(page, 'cashier-7-pix');
    await page.click('#cancel');
    await page.waitForSelector('#result:not([hidden])', { timeout: 15_000 });
    expect(await page.textContent('#result')).toMatch(/Cancelada/);
    expect(errors).toEqual([]);
  });

  it('reopens the event stream with a new ticket when it drops (a spent ticket is never reused)', async () => {
    const { page } = b;
    const errors = pageErrors(page, [/^\/v1\/events$/]);
    const opened: string[] = [];
    let dropped = 0;
    await page.route('**/v1/events?*', async (route) => {
      opened.push(new URL(route.request().url()).searchParams.get('ticket') ?? '');
      // The first stream fails as a dropped connection would; the next ones go through.
      if (dropped++ === 0) await route.abort('connectionreset');
      else await route.continue();
    });
    await page.goto('about:blank');
    await page.goto(`${t.apiUrl}/screens/cashier.html#token=${t.token}`);
    for (let i = 0; i < 100 && opened.length < 2; i++) await new Promise((r) => setTimeout(r, 50));
    expect(opened.length).toBeGreaterThanOrEqual(2);
    expect(new Set(opened).size).toBe(opened.length);
    // The reopened stream carries the next sale's events to the screen.
    await page.fill('#amount', '25,10');
    await page.click('#charge');
    await page.waitForSelector('#result:not([hidden])', { timeout: 20_000 });
    // A pinpad prompt reached the page: only the event stream carries those (the poll reads states).
    expect(await pinpadPromptMs(page)).toBeDefined();
    await page.unroute('**/v1/events?*');
    expect(errors).toEqual([]);
  });

  it("the supervisor's page: today's payments as the API lists them, the outbox, a place for the day report and voids", async () => {
    const { page } = b;
    const errors = pageErrors(page);
    // Paper out, found by a reprint: an alarm health holds while the supervisor looks.
    const printer = t.printer;
    printer.loadPaper(0);
    const last = (await listPayments(t.apiUrl, t.token, 'confirmed'))[0]!;
    await fetch(`${t.apiUrl}/v1/payments/${last.id}/receipt/print`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token}` },
    }).then((r) => r.text());
    // The monitor checks on its own every so often (a device condition must hold twice); here, at once.
    t.checkAlarms();
    t.checkAlarms();
    await page.goto('about:blank');
    await page.goto(`${t.apiUrl}/screens/supervisor.html#token=${t.token}`);
    await page.waitForSelector('#payments tbody tr');
    const listed = await listPayments(t.apiUrl, t.token);
    const rows = await page.$$eval('#payments tbody tr', (trs) =>
      trs.map((tr) => [tr.children[0]?.textContent, tr.getAttribute('data-status')]),
    );
    expect(rows).toEqual(listed.map((p) => [String(p.id), p.status]));
    expect(rows.filter((r) => r[1] === 'confirmed').length).toBeGreaterThanOrEqual(3);
    expect(rows.filter((r) => r[1] === 'cancelled').length).toBeGreaterThanOrEqual(1);
    await page.waitForSelector('#outbox dd');
    expect(await page.textContent('#outbox')).toMatch(/Envios pendentes/);
    expect(await page.isVisible('#operations')).toBe(true);
    // The alarms health holds, one line each, in the page's language (by code: data-code).
    const health = (await fetch(`${t.apiUrl}/v1/health`, {
      headers: { authorization: `Bearer ${t.token}` },
    }).then((r) => r.json())) as { alarms?: { code: string }[] };
    const alarmLines = await page.$$eval('#alarms li', (lis) => lis.map((li) => li.textContent ?? ''));
    const alarmCodes = await page.$$eval('#alarms li', (lis) => lis.map((li) => li.getAttribute('data-code')));
    expect(alarmLines.length).toBe(health.alarms?.length ?? 0);
    expect(alarmCodes).toEqual((health.alarms ?? []).map((a) => a.code));
    expect(alarmLines.some((l) => l.includes('A impressora está sem papel'))).toBe(true);
    console.log(`supervisor: ${alarmLines.length} alarm(s) held: ${alarmLines.join(' | ')}`);
    printer.loadPaper();
    // Outside production every screen says so.
    expect(await page.textContent('#environment')).toMatch(/AMBIENTE DE TESTE — SEM VALOR/);
    await snap(page, 'supervisor-1');
    expect(errors).toEqual([]);
  });
});
