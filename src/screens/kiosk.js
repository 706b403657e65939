// The unattended kiosk: full screen, large targets, Portuguese first. Every wait ends back at
// idle (?idleMs= for the choices, ?payMs= without news from the payment, ?resultMs= on the
// result); the printer is checked before the card; "out of service" while the pinpad, the
// printer or the acquirer is down (GET /v1/health every ?healthMs=), and back on its own.
import { ApiFailure, followEvents, money, msParam, showQr, token, environmentBanner } from './api.js';
import { applyLang, currentLang, langToggle, t } from './i18n.js';
import { PaymentRun, stateText } from './payment.js';
import { showReceipt } from './receipt.js';
import { hideReceiptQr, showReceiptQr } from './kiosk-receipt-qr.js';
import { ServiceWatch } from './service.js';
import {
  feedRecurrence,
  paintOffer,
  RECURRENCE,
  recurrenceOut,
  stopRecurrence,
  subscribe,
} from './kiosk-recurrence.js';

const IDLE_MS = msParam('idleMs', 30_000);
const PAY_MS = msParam('payMs', 120_000);
const RESULT_MS = msParam('resultMs', 15_000);
const HEALTH_MS = msParam('healthMs', 5_000);
// Out of service once health has said "acquirer unreachable" for this long; back when it says reachable.
const service = new ServiceWatch(msParam('acquirerDownMs', 5_000));
const PRICE = Number(new URLSearchParams(location.search).get('amount')) || 0;

const $ = (id) => document.getElementById(id);
const sale = { amount: 0, method: 'credit', receipt: 'print' };
let run;
let timer;
let health;

token();
void environmentBanner();
applyLang();
langToggle($('lang'), () => paintTotals());
// A subscription kiosk (`?recurrence=monthly&amount=…`): the idle screen offers the subscription.
if (RECURRENCE) $('start').dataset.i18n = 'kiosk.recurrence.start';
applyLang();

/** Shows one screen; `waitMs` sends it back to idle if nobody acts. */
function show(name, waitMs) {
  for (const s of document.querySelectorAll('.screen')) s.hidden = s.id !== name;
  document.body.dataset.screen = name;
  clearTimeout(timer);
  if (waitMs) timer = setTimeout(timeout, waitMs);
}

function timeout() {
  if (document.body.dataset.screen === 'paying' && run && !run.finished) {
    // No news from the payment: cancel it; its end shows as a result, or idle after one more wait.
    void run.cancel();
    timer = setTimeout(idle, IDLE_MS);
    return;
  }
  idle();
}

/** Any touch on a waiting screen gives the person the whole wait again. */
document.addEventListener('pointerdown', () => {
  const screen = document.body.dataset.screen;
  if (['amount', 'method', 'receipt-choice', 'subscribe'].includes(screen)) show(screen, IDLE_MS);
});

function idle() {
  run?.stop();
  run = undefined;
  stopRecurrence();
  if (setLangBack()) applyLang();
  if (outOfService(health)) show('out-of-service');
  else show('idle');
}

/** Back at idle the next customer starts in Portuguese. */
function setLangBack() {
  if (currentLang() === 'pt') return false;
  $('lang').click();
  return true;
}

function paintTotals() {
  for (const el of document.querySelectorAll('[data-total]')) el.textContent = money(sale.amount, currentLang());
  $('amount-value').textContent = money(sale.amount, currentLang());
  if (RECURRENCE) paintOffer(sale.amount);
}

/** What makes sales impossible now: a pinpad, printer or acquirer known to be down, or no daemon. */
function outOfService(h) {
  const why = service.reason(h) || recurrenceOut();
  document.body.dataset.outOfService = why;
  $('out-of-service-detail').dataset.i18n =
    why === 'recurrence-not-offered' ? 'kiosk.recurrence.not-offered' : 'out-of-service.detail';
  $('out-of-service-detail').textContent = t($('out-of-service-detail').dataset.i18n);
  return why !== '';
}

async function readHealth() {
  try {
    const res = await fetch('/v1/health', {
      headers: { authorization: `Bearer ${token()}` },
      cache: 'no-store',
      signal: AbortSignal.timeout(4000),
    });
    health = res.ok ? await res.json() : undefined;
  } catch {
    health = undefined;
  }
  return health;
}

async function watchHealth() {
  await readHealth();
  const screen = document.body.dataset.screen;
  if (outOfService(health) && ['idle', 'amount', 'method', 'receipt-choice', 'subscribe'].includes(screen))
    show('out-of-service');
  else if (!outOfService(health) && screen === 'out-of-service') show('idle');
  setTimeout(() => void watchHealth(), HEALTH_MS);
}

/** The printer can put a receipt in the customer's hand now. */
function printerReady(h) {
  const p = h?.printer;
  return Boolean(p && p.reachable !== false && !p.paperOut && !p.coverOpen);
}

$('start').addEventListener('click', () => {
  sale.amount = PRICE;
  paintTotals();
  if (RECURRENCE && PRICE > 0) show('subscribe', IDLE_MS);
  else if (PRICE > 0) show('method', IDLE_MS);
  else show('amount', IDLE_MS);
});

$('keypad').addEventListener('click', (ev) => {
  const key = ev.target.closest('button')?.dataset.key;
  if (!key) return;
  if (key === 'clear') sale.amount = 0;
  else if (key === 'ok') {
    if (sale.amount > 0) show('method', IDLE_MS);
    return;
  } else if (sale.amount < 10_000_000) sale.amount = sale.amount * 10 + Number(key);
  paintTotals();
});

for (const b of document.querySelectorAll('[data-method]')) {
  b.addEventListener('click', async () => {
    sale.method = b.dataset.method;
    // The printer before the card: with no paper the receipt can only be shown.
    await readHealth();
    const canPrint = printerReady(health);
    $('choose-print').disabled = !canPrint;
    $('paper-out').hidden = canPrint;
    show('receipt-choice', IDLE_MS);
  });
}

for (const b of document.querySelectorAll('[data-receipt]'))
  b.addEventListener('click', () => void pay(b.dataset.receipt));
for (const b of document.querySelectorAll('.back')) b.addEventListener('click', idle);

async function pay(receipt) {
  await readHealth();
  if (outOfService(health)) return show('out-of-service');
  sale.receipt = receipt === 'print' && !printerReady(health) ? 'screen' : receipt;
  const body = {
    amount: sale.amount,
    method: sale.method === 'wallet-qr' ? 'wallet-qr' : sale.method,
    confirmation: 'auto',
  };
  if (sale.receipt !== 'print') body.receipt = false;
  $('prompt').textContent = stateText('started', sale.method);
  $('qr').hidden = true;
  $('cancel').hidden = false;
  show('paying', PAY_MS);
  run = new PaymentRun({
    prompt: (text) => {
      $('prompt').textContent = text;
      show('paying', PAY_MS);
    },
    qr: (code) => {
      $('prompt').textContent = t('scan-qr');
      void showQr($('qr'), code).catch(() => undefined);
    },
    // Unattended: nobody to answer; the daemon never asks a kiosk.
    question: () => undefined,
    done: (view) => void finished(view),
  });
  try {
    await run.start(body);
  } catch (e) {
    // The daemon read the printer before the card and it cannot print: the customer chooses
    // again, without paper (the receipt on screen, or none).
    if (e instanceof ApiFailure && e.code === 'RECEIPT_PRINTER_NOT_READY') {
      run = undefined;
      $('choose-print').disabled = true;
      $('paper-out').hidden = false;
      show('receipt-choice', IDLE_MS);
      return;
    }
    // A daemon without the `receipt` option yet: the sale goes on with the printed receipt.
    if (e instanceof ApiFailure && e.status === 400 && e.field === 'receipt') {
      delete body.receipt;
      await run.start(body).catch(() => finished({ status: 'failed', state: 'failed' }));
      return;
    }
    await finished({
      status: 'failed',
      state: 'failed',
      returnMessage: e instanceof ApiFailure && e.code === 'BUSY' ? t('error.busy') : '',
    });
  }
}

async function finished(view) {
  const ok = view.status === 'confirmed';
  $('result-text').textContent = [stateText(view.state), ok ? '' : view.returnMessage].filter(Boolean).join(' — ');
  $('result-text').className = `result ${ok ? 'ok' : 'bad'}`;
  $('receipt').hidden = true;
  hideReceiptQr($('receipt-qr'));
  show('result', RESULT_MS);
  // Not printed (no paper, or "no receipt"): the receipt on screen when asked, and in either case
  // its digital copy as a QR code the customer's phone reads.
  if (ok && sale.receipt !== 'print' && view.id !== undefined) {
    await Promise.all([
      sale.receipt === 'screen' ? showReceipt($('receipt'), view) : undefined,
      showReceiptQr($('receipt-qr'), view.id),
    ]);
  }
}

$('cancel').addEventListener('click', () => {
  $('cancel').hidden = true;
  void run?.cancel();
  if (RECURRENCE) idle();
});

$('subscribe-go').addEventListener('click', () => {
  void subscribe(sale.amount, {
    paying: (text) => {
      if (text !== undefined) $('prompt').textContent = text;
      $('qr').hidden = true;
      $('cancel').hidden = false;
      show('paying', PAY_MS);
    },
    result: (ok, text) => {
      $('result-text').textContent = text;
      $('result-text').className = `result ${ok ? 'ok' : 'bad'}`;
      $('receipt').hidden = true;
      hideReceiptQr($('receipt-qr'));
      show('result', RESULT_MS);
    },
    outOfService: () => {
      outOfService(health);
      show('out-of-service');
    },
  });
});
$('done').addEventListener('click', idle);

followEvents((e) => {
  run?.feed(e);
  feedRecurrence(e);
});
show('idle');
void watchHealth();
