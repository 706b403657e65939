import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import { TEST_CARDS } from '../../tables/test-cards.js';
import { startTestDaemon } from '../helpers/daemon.js';
import { decodePng } from '../helpers/png-decode.js';
import { decodeQrRgba } from '../helpers/qr-decode.js';
import { launch, listPayments, pageErrors, snap } from './browser.js';
import { useTempDirs } from '../helpers/temp-dir.js';

let t: Awaited<ReturnType<typeof startTestDaemon>>;
let b: Awaited<ReturnType<typeof launch>>;
beforeAll(async () => {
  // A kiosk's daemon: unattended (no receipt question; the printer read before the card).
  [t, b] = await Promise.all([startTestDaemon({ env: { OMNIPOS_TERMINAL__MODE: 'unattended' } }), launch()]);
});
afterAll(async () => {
  await b?.close();
  await t?.stop();
});

/** The kiosk with short waits (URL parameters) and the token in the fragment. */
const kiosk = (params: string): string => `${t.apiUrl}/screens/kiosk.html?${params}#token=${t.token}`;
const screen = (name: string) => `body[data-screen="${name}"]`;

describe('the kiosk screen against a real daemon', () => {
  const tempDir = useTempDirs();
  // How long the kiosk shows a code nobody pays: room for the screenshot and the listing under load (at 1,200 ms
  // a loaded machine saw the payment cancelled before the test listed it pending).
  const PAY_MS = 4000;
  it('every wait goes back to idle: the amount, the method, the receipt choice and a payment nobody finishes', async () => {
    const { page } = b;
    const errors = pageErrors(page);
    await page.goto(kiosk(`idleMs=700&payMs=${PAY_MS}&resultMs=800&healthMs=500`));
    await page.waitForSelector(screen('idle'));
    expect(await page.getAttribute('html', 'lang')).toBe('pt-BR');
    expect(await page.textContent('#start')).toBe('Toque para pagar');
    await snap(page, 'kiosk-1-idle');
    // English on demand; back in Portuguese for the next customer.
    await page.click('#lang');
    expect(await page.textContent('#start')).toBe('Touch to pay');
    await page.click('#start');
    await page.waitForSelector(screen('amount'));
    let left = Date.now();
    await page.waitForSelector(screen('idle'), { timeout: 5000 });
    const amountWait = Date.now() - left;
    expect(amountWait).toBeGreaterThanOrEqual(600);
    expect(await page.textContent('#start')).toBe('Toque para pagar');
    // Amount typed on the keypad, then nobody chooses a method.
    await page.click('#start');
    for (const k of ['2', '5', '1', '0']) await page.click(`[data-key="${k}"]`);
    expect(await page.textContent('#amount-value')).toMatch(/25,10/);
    await snap(page, 'kiosk-2-amount');
    await page.click('[data-key="ok"]');
    await page.waitForSelector(screen('method'));
    await page.waitForSelector(screen('idle'), { timeout: 5000 });
    // Up to the receipt choice, then nobody chooses.
    await page.click('#start');
    for (const k of ['2', '6', '1', '0']) await page.click(`[data-key="${k}"]`);
    await page.click('[data-key="ok"]');
    await page.click('[data-method="wallet-qr"]');
    await page.waitForSelector(screen('receipt-choice'));
    await snap(page, 'kiosk-3-receipt-choice');
    await page.waitForSelector(screen('idle'), { timeout: 5000 });
    // A wallet QR code nobody pays: after payMs without news the kiosk cancels it, shows the
    // result, and is idle again after resultMs; the daemon has the payment cancelled.
    await page.click('#start');
    for (const k of ['2', '6', '1', '0']) await page.click(`[data-key="${k}"]`);
    await page.click('[data-key="ok"]');
    await page.click('[data-method="wallet-qr"]');
    left = Date.now();
    await page.click('[data-receipt="none"]');
    await page.waitForSelector('#qr:not([hidden])', { timeout: 5000 });
    // The code on screen, read back from the pixels, is the one the daemon asks the wallet to pay: both read
    // while the code is shown (payMs), before the screenshot kept for the docs.
    const png = decodePng(await page.locator('#qr').screenshot());
    const pending = await listPayments(t.apiUrl, t.token, 'pending');
    const shown = decodeQrRgba(png.rgba, png.width, png.height);
    await snap(page, 'kiosk-4-qr');
    expect(shown).toBeDefined();
    expect(shown).toBe(pending[0]?.qrCode);
    await page.waitForSelector(screen('result'), { timeout: 10_000 });
    expect(Date.now() - left).toBeGreaterThanOrEqual(PAY_MS);
    expect(await page.textContent('#result-text')).toMatch(/Cancelada/);
    await snap(page, 'kiosk-5-cancelled');
    await page.waitForSelector(screen('idle'), { timeout: 5000 });
    const list = await listPayments(t.apiUrl, t.token);
    expect(list[0]).toMatchObject({ method: 'wallet-qr', amount: 2610, status: 'cancelled' });
    expect(errors).toEqual([]);
  });

  it('a card sale with the receipt on screen instead of paper', async () => {
    const { page } = b;
    const errors = pageErrors(page);
    await page.goto(kiosk('amount=2510&healthMs=500'));
    await page.waitForSelector(screen('idle'));
    const printed = t.printer.receipts.length ?? 0;
    await page.click('#start');
    await page.click('[data-method="credit"]');
    await page.click('[data-receipt="screen"]');
    await page.waitForSelector(screen('result'), { timeout: 20_000 });
    expect(await page.textContent('#result-text')).toMatch(/Aprovada/);
    await page.waitForSelector('#receipt:not([hidden])');
    expect(await page.textContent('#receipt')).toMatch(/25,10/);
    await snap(page, 'kiosk-6-receipt-on-screen');
    const list = await listPayments(t.apiUrl, t.token);
    expect(list[0]).toMatchObject({ method: 'credit', status: 'confirmed' });
    // The kiosk asked for `receipt: false`: nothing came out of the printer.
    expect((t.printer.receipts.length ?? 0) - printed).toBe(0);
    expect(errors).toEqual([]);
  });

  it('a wallet QR sale paid by scanning the screen: the code read from the pixels, paid through the wallet API, approved on the kiosk', async () => {
    const { page } = b;
    const errors = pageErrors(page);
    await page.goto('about:blank');
    await page.goto(kiosk('amount=2610&healthMs=1000'));
    await page.click('#start');
    await page.click('[data-method="wallet-qr"]');
    await page.click('[data-receipt="none"]');
    await page.waitForSelector('#qr:not([hidden])', { timeout: 5000 });
    const png = decodePng(await page.locator('#qr').screenshot());
    const scanned = decodeQrRgba(png.rgba, png.width, png.height);
    expect(scanned).toMatch(/^000201/);
    // The customer's wallet pays what it scanned (the CLI's `omnipos wallet pay`, first test card).
    const card = TEST_CARDS[0]!;
    const state = tempDir('omnipos-wallet-');
    let out = '';
    const code = await runCli(
      [
        'wallet',
        'pay',
        scanned!,
        '--card',
        card.pan,
        '--cvv',
        '123',
        '--exp',
        `${card.expiry.slice(2)}${card.expiry.slice(0, 2)}`,
        '--name',
        'TESTE CARTAO',
        '--document',
        '52998224725',
      ],
      {
        out: (x) => (out += x),
        err: (x) => (out += x),
        env: { OMNIPOS_STATE_DIR: state, OMNIPOS_ACQUIRER__WALLET_URL: t.sandbox.urls.wallet },
      },
    );
    expect(code, out).toBe(0);
    await page.waitForSelector(screen('result'), { timeout: 15_000 });
    expect(await page.textContent('#result-text')).toMatch(/Aprovada/);
    await snap(page, 'kiosk-10-qr-paid');
    expect((await listPayments(t.apiUrl, t.token))[0]).toMatchObject({
      method: 'wallet-qr',
      amount: 2610,
      status: 'confirmed',
    });
    expect(errors).toEqual([]);
  });

  it('checks the printer before the card: out of paper, Imprimir is refused and the receipt is shown on screen instead', async () => {
    const { page } = b;
    const printer = t.printer;
    const errors = pageErrors(page);
    await page.goto('about:blank');
    await page.goto(kiosk('amount=2510&healthMs=500'));
    await page.waitForSelector(screen('idle'));
    printer.loadPaper(0);
    const printed = printer.receipts.length;
    const sales = t.journal.list({ limit: 500 }).length;
    await page.click('#start');
    await page.click('[data-method="credit"]');
    await page.waitForSelector(screen('receipt-choice'));
    // Health may not know yet (the driver reads the status when asked): the daemon's own check
    // before the card refuses the sale, and the kiosk asks again without paper.
    const healthKnew = !(await page.isEnabled('#choose-print'));
    if (!healthKnew) await page.click('#choose-print');
    await page.waitForSelector('#choose-print:disabled');
    await page.waitForSelector('#paper-out:not([hidden])');
    expect(await page.textContent('#paper-out')).toMatch(/não pode imprimir/);
    await snap(page, 'kiosk-9-paper-out');
    // No journal row was opened for the refused attempt: the card was never asked for.
    expect(t.journal.list({ limit: 500 }).length).toBe(sales);
    await page.click('[data-receipt="screen"]');
    await page.waitForSelector(screen('result'), { timeout: 20_000 });
    expect(await page.textContent('#result-text')).toMatch(/Aprovada/);
    await page.waitForSelector('#receipt:not([hidden])');
    expect(printer.receipts.length).toBe(printed);
    printer.loadPaper();
    // Either health already knew (Imprimir never offered) or the daemon's check answered 503.
    if (!healthKnew) expect(errors).toContain('HTTP 503 /v1/payments');
    console.log(
      `kiosk: paper out caught by ${healthKnew ? 'health before the choice' : "the daemon's check before the card (503 RECEIPT_PRINTER_NOT_READY)"}`,
    );
    expect(errors.filter((e) => e !== 'HTTP 503 /v1/payments')).toEqual([]);
  });

  it('shows "out of service" while the pinpad is unplugged, and returns to service on its own', async () => {
    const { page } = b;
    const errors = pageErrors(page);
    await page.goto(kiosk('healthMs=300'));
    await page.waitForSelector(screen('idle'));
    const pinpad = t.pinpadCable;
    const pulled = Date.now();
    await pinpad.unplug();
    await page.waitForSelector(screen('out-of-service'), { timeout: 20_000 });
    const outMs = Date.now() - pulled;
    expect(await page.textContent('#out-of-service h2')).toBe('Fora de serviço');
    expect(await page.getAttribute('body', 'data-out-of-service')).toBe('pinpad');
    await snap(page, 'kiosk-7-out-of-service');
    const plugged = Date.now();
    await pinpad.replug();
    await page.waitForSelector(screen('idle'), { timeout: 30_000 });
    const backMs = Date.now() - plugged;
    await snap(page, 'kiosk-8-back-in-service');
    expect(errors).toEqual([]);
    console.log(`kiosk: out of service ${outMs} ms after the unplug; back ${backMs} ms after the replug`);
  });

  it('the out-of-service rule (src/screens/service.js, run in the page): each part down, paper is not down, the acquirer down once health has said unreachable for acquirerDownMs in a row, back as soon as it says reachable', async () => {
    const { page } = b;
    await page.goto(kiosk('healthMs=60000'));
    const ok = {
      pinpad: { connected: true, secure: true },
      printer: { reachable: true, paperOut: false, coverOpen: false },
      acquirer: { reachable: true, lastFailureAt: null },
    };
    // A string, so that vitest does not rewrite the page's dynamic import.
    const script = `import('/screens/service.js').then(({ ServiceWatch }) => {
      const healthy = ${JSON.stringify(ok)};
      const w = new ServiceWatch(1000);
      const failed = (at) => ({ ...healthy, acquirer: { reachable: false, lastFailureAt: at } });
      return [
        w.reason(healthy, 0),
        w.reason(undefined, 0),
        w.reason({ ...healthy, pinpad: { connected: true, secure: false } }, 0),
        w.reason({ ...healthy, pinpad: { connected: false, secure: false } }, 0),
        w.reason({ ...healthy, printer: { reachable: false, paperOut: false, coverOpen: false } }, 0),
        w.reason({ ...healthy, printer: { reachable: false, paperOut: true, coverOpen: false } }, 0),
        w.reason({ ...healthy, printer: { reachable: false, paperOut: false, coverOpen: true } }, 0),
        w.reason({ ...healthy, printer: null, pinpad: null, acquirer: null }, 0),
        // unreachable for the grace in a row: out; reachable: back at once
        w.reason(failed('T1'), 10000),
        w.reason(failed('T1'), 10999),
        w.reason(failed('T1'), 11000),
        w.reason(failed('T2'), 15000),
        w.reason(healthy, 15001),
        // flapping: each reachable reading restarts the grace
        w.reason(failed('T3'), 20000),
        w.reason(healthy, 20900),
        w.reason(failed('T4'), 21000),
        w.reason(failed('T4'), 21999),
        w.reason(failed('T4'), 22000),
        // a health without the acquirer part says nothing about it
        w.reason({ ...healthy, acquirer: null }, 22001),
        w.reason(failed('T4'), 22002),
      ];
    })`;
    const results = await page.evaluate(script);
    expect(results).toEqual([
      '',
      'daemon',
      'pinpad',
      'pinpad',
      'printer',
      '',
      '',
      '',
      '',
      '',
      'acquirer',
      'acquirer',
      '',
      '',
      '',
      '',
      '',
      'acquirer',
      '',
      'acquirer',
    ]);
  });

  // Last: it stops the embedded acquirer for good.
  it('out of service once a sale finds the acquirer unreachable, and it stays out while health says so (the daemon’s probe keeps failing)', async () => {
    const { page } = b;
    const errors = pageErrors(page);
    await page.goto('about:blank');
    await page.goto(kiosk('amount=2510&healthMs=300&acquirerDownMs=2000&resultMs=500'));
    await page.waitForSelector(screen('idle'));
    const before = Math.max(0, ...(await listPayments(t.apiUrl, t.token)).map((p) => Number(p.id)));
    await t.sandbox.close();
    await page.click('#start');
    await page.click('[data-method="credit"]');
    await page.click('[data-receipt="none"]');
    await page.waitForSelector(screen('out-of-service'), { timeout: 30_000 });
    expect(await page.getAttribute('body', 'data-out-of-service')).toBe('acquirer');
    await snap(page, 'kiosk-11-acquirer-down');
    // the host stays away: so does the kiosk's service, well past the grace (back in service: kiosk-acquirer.test.ts)
    const left = await page.waitForSelector(screen('idle'), { timeout: 4000 }).then(
      () => true,
      () => false,
    );
    expect(left).toBe(false);
    expect(await page.getAttribute('body', 'data-out-of-service')).toBe('acquirer');
    // The kiosk may learn that the acquirer is gone before the customer's sale starts (the closed
    // sandbox drops the daemon's kept-alive connections) and then never open one: either way,
    // nothing taken while the acquirer was down is kept.
    const taken = (await listPayments(t.apiUrl, t.token)).filter((p) => Number(p.id) > before);
    for (const sale of taken) expect(['failed', 'cancelled', 'declined', 'undone']).toContain(sale.status);
    expect(errors.filter((e) => !e.startsWith('HTTP 5'))).toEqual([]);
  });
});
