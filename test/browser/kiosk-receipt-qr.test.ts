import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardSim, findCard } from '../../src/sim/pinpad/card/index.js';
import { startTestDaemon } from '../helpers/daemon.js';
import { decodePng } from '../helpers/png-decode.js';
import { decodeQrRgba } from '../helpers/qr-decode.js';
import { launch, listPayments, pageErrors, snap } from './browser.js';

/**
 * The kiosk's digital copy: after a "no receipt" card sale the result screen shows a QR code, and
 * what a phone reads from its pixels (jsQR on a screenshot) is the customer's copy — the amount,
 * the card masked to first 6 / last 4, the authorization code — never the whole card number.
 */
let t: Awaited<ReturnType<typeof startTestDaemon>>;
let b: Awaited<ReturnType<typeof launch>>;
beforeAll(async () => {
  [t, b] = await Promise.all([startTestDaemon({ env: { OMNIPOS_TERMINAL__MODE: 'unattended' } }), launch()]);
});
afterAll(async () => {
  await b?.close();
  await t?.stop();
});

describe('the kiosk shows the receipt as a QR code to a digital copy', () => {
  it('a "no receipt" credit sale: the QR on the result screen decodes to the customer copy, masked', async () => {
    const { page } = b;
    const errors = pageErrors(page);
    const card = findCard({ lastDigit: 0 })!;
    const chosen = cardSim(t.pinpad.state).deck.choose({
      pan: card.pan,
      via: 'chip',
      pin: 'right',
    });
    expect(chosen.ok).toBe(true);
    const printed = t.printer.receipts.length ?? 0;
    await page.goto(`${t.apiUrl}/screens/kiosk.html?amount=2510&healthMs=500&resultMs=30000#token=${t.token}`);
    await page.waitForSelector('body[data-screen="idle"]');
    await page.click('#start');
    await page.click('[data-method="credit"]');
    await page.click('[data-receipt="none"]');
    await page.waitForSelector('body[data-screen="result"]', { timeout: 20_000 });
    expect(await page.textContent('#result-text')).toMatch(/Aprovada/);
    await page.waitForSelector('#receipt-qr:not([hidden])', { timeout: 5000 });
    // "no receipt": no text on screen, no paper, only the code
    expect(await page.isHidden('#receipt')).toBe(true);
    expect((t.printer.receipts.length ?? 0) - printed).toBe(0);
    expect(await page.textContent('#receipt-qr figcaption')).toMatch(/celular/);
    await snap(page, 'kiosk-11-receipt-qr');
    const png = decodePng(await page.locator('#receipt-qr img').screenshot());
    const text = decodeQrRgba(png.rgba, png.width, png.height);
    expect(text, 'the QR code on screen decodes').toBeDefined();
    const [sale] = await listPayments(t.apiUrl, t.token);
    expect(sale).toMatchObject({ method: 'credit', amount: 2510, status: 'confirmed' });
    const view = t.journal.get(sale!.id)!.data as { authorizationCode?: string };
    expect(view.authorizationCode).toMatch(/\S/);
    expect(text).toContain('R$ 25,10');
    expect(text).toContain(`${card.pan.slice(0, 6)}******${card.pan.slice(-4)}`);
    expect(text).toContain(view.authorizationCode);
    expect(text).toContain('VIA CLIENTE');
    expect(text).not.toContain(card.pan);
    expect(text).not.toMatch(/\d{7,}\*|\*\d{5,}/);
    // back at idle the code is gone
    await page.click('#done');
    await page.waitForSelector('body[data-screen="idle"]');
    expect(await page.isHidden('#receipt-qr')).toBe(true);
    expect(errors).toEqual([]);
  }, 60_000);
});
