// The cashier's sales without the card present (POST /v1/card-not-present/sales): a phone order or a
// pre-authorization, its card typed on the pinpad while the page follows the pinpad's prompts from the
// event stream (kind `cnp`, type `prompt`, told apart by this request's Idempotency-Key), then its
// outcome; and the open pre-authorizations, each captured (whole or a part) or voided (the supervisor's
// password, as the supervisor's voids ask it). The page never sees a digit of the card: the pinpad takes them.
import { api, ApiFailure, money, parseAmount } from './api.js';
import { currentLang, errorText, fill, hostTime, t } from './i18n.js';
import { reprint, showReceipt } from './receipt.js';
import { button, cell } from './rows.js';
import { listCards, mountCnpCards, repaintCnpCards } from './cashier-cnp-cards.js';

const $ = (id) => document.getElementById(id);
const SALES = '/v1/card-not-present/sales';
/** The states a sale's outcome is known in (`sending` leaves soon; `undoing` is the outbox's). */
const SETTLED = new Set(['authorized', 'captured', 'declined', 'failed', 'undone', 'needs-refund', 'dead-letter']);
/** The typing takes four prompts of up to 60 s each on the pinpad; the request stays open meanwhile. */
const TYPING_MS = 5 * 60_000;
const POLL_MS = 400;

/** The sale under way: its Idempotency-Key, its abort (the Cancel key of the page), its id once journaled. */
let current;
/** What each element of ours says, to say it again in a new language. */
const painters = new Map();

function say(el, paint) {
  painters.set(el, paint);
  el.textContent = paint();
}

function refusal(el, e) {
  el.dataset.code = e.code ?? '';
  say(el, () => `${t('error.generic')}${errorText(e)}`);
  el.hidden = false;
}

/** The page's words again, in the language just chosen. */
export function repaintCnp() {
  for (const [el, paint] of painters) el.textContent = paint();
  void listPreauths();
  repaintCnpCards();
}

/** Every event of the stream: this sale's prompts while its card is typed, its states afterwards. */
export function feedCnp(e) {
  if (!current || e.kind !== 'cnp') return;
  if (e.type === 'prompt' && current.id === undefined && e.idempotencyKey === current.key) {
    $('cnp-prompt').dataset.prompt = e.prompt;
    $('cnp-prompt').dataset.source = 'prompt';
    say($('cnp-prompt'), () => t(`cnp.prompt.${e.prompt}`, e.text));
  } else if (e.type === 'state' && e.id === current.id && SETTLED.has(e.state)) void settle(current);
}

/** The sale's body from the form: its card typed on the pinpad, or (`savedCardId`) a saved card's, nothing typed. */
function bodyOf(savedCardId) {
  const amount = parseAmount($('cnp-amount').value);
  if (amount === undefined) return undefined;
  const installments = Math.max(1, Math.min(12, Number($('cnp-installments').value) || 1));
  const capture = document.querySelector('input[name=cnp-kind]:checked').value === 'sale';
  if (savedCardId !== undefined) return { amount, installments, capture, savedCardId };
  // As printed on the card: the host takes letters and spaces only, without accents.
  const holder = $('cnp-holder')
    .value.normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z ]/g, '')
    .trim()
    .toUpperCase();
  const body = {
    amount,
    holder,
    installments,
    capture,
  };
  if ($('cnp-brand').value) body.brand = $('cnp-brand').value;
  return body;
}

function showForm(show) {
  $('cnp-form').hidden = !show;
  $('cnp-run').hidden = show;
  $('cnp-reprint').hidden = true;
  $('cnp-receipt').hidden = true;
}

/** Prints the sale's receipt (GET/POST /v1/payments/{id}/receipt…, as every receipt); shown on screen when the printer cannot. */
async function printReceipt(view) {
  if (await reprint(view.id)) {
    say($('cnp-prompt'), () => t('cnp.receipt.printed'));
    return;
  }
  say($('cnp-prompt'), () => t('reprint.unavailable'));
  await showReceipt($('cnp-receipt'), view);
}

async function start(ev, savedCardId) {
  ev?.preventDefault();
  $('cnp-error').hidden = true;
  const body = bodyOf(savedCardId);
  if (!body) return refusal($('cnp-error'), { code: 'INVALID_FIELD', field: 'amount' });
  const sale = { key: `cashier-cnp-${crypto.randomUUID()}`, abort: new AbortController(), id: undefined };
  current = sale;
  showForm(false);
  const kind = body.capture ? 'cnp.kind.sale' : 'cnp.kind.preauth';
  say($('cnp-total'), () => `${money(body.amount, currentLang())} — ${t(kind)}`);
  $('cnp-prompt').dataset.source = 'page';
  say($('cnp-prompt'), () => t(savedCardId === undefined ? 'cnp.typing' : 'cnp.sending'));
  $('cnp-result').hidden = true;
  $('cnp-again').hidden = true;
  $('cnp-cancel').hidden = false;
  try {
    const view = await api(SALES, {
      method: 'POST',
      body,
      timeoutMs: TYPING_MS,
      headers: { 'idempotency-key': sale.key },
      signal: sale.abort.signal,
    });
    sale.id = view.id;
    $('cnp-cancel').hidden = true;
    say($('cnp-prompt'), () => t('cnp.sending'));
    await settle(sale, view);
  } catch (e) {
    if (current !== sale) return;
    current = undefined;
    showForm(true);
    // Cancelled here: the connection closed, the daemon stopped the typing; nothing was sent.
    refusal($('cnp-error'), sale.abort.signal.aborted ? { code: 'CNP_TYPING_CANCELLED' } : e);
    // A backend without a BIN lookup (the webservice 1.5) needs the brand from the cashier.
    if (e.field === 'brand') {
      say($('cnp-error'), () => t('cnp.brand.needed'));
      $('cnp-brand').focus();
    }
  }
}

/** Reads the sale until its outcome is known, then shows it. */
async function settle(sale, first) {
  if (sale.settling) return;
  sale.settling = true;
  let view = first;
  for (let n = 0; current === sale && !SETTLED.has(view?.state); n++) {
    if (n > 0 || view) await new Promise((r) => setTimeout(r, POLL_MS));
    view = await api(`${SALES}/${sale.id}`).catch(() => view);
  }
  if (current !== sale) return;
  const ok = view.state === 'captured' || view.state === 'authorized';
  const result = $('cnp-result');
  result.className = `result ${ok ? 'ok' : 'bad'}`;
  result.dataset.state = view.state;
  // The masked number the host echoed (first six, last four), never what was typed.
  const card = view.card?.maskedPan ? ` — ${view.card.maskedPan}` : '';
  say(result, () => `${t(`cnp.state.${view.state}`, view.state)}${card}`);
  result.hidden = false;
  $('cnp-prompt').textContent = '';
  painters.delete($('cnp-prompt'));
  $('cnp-again').hidden = false;
  if (ok) {
    $('cnp-reprint').hidden = false;
    $('cnp-reprint').onclick = () => void printReceipt(view);
  }
  await listPreauths();
}

/** Captures (whole, or the part typed in its row) or voids (whole, with the supervisor's password) one. */
async function change(id, op, amountText) {
  const message = $('cnp-message');
  message.hidden = false;
  const amount = amountText === '' ? undefined : parseAmount(amountText);
  if (amountText !== '' && amount === undefined) return refusal(message, { code: 'INVALID_FIELD', field: 'amount' });
  const password = $('cnp-supervisor-password').value;
  try {
    const view = await api(`${SALES}/${id}/${op}`, {
      method: 'POST',
      body: amount === undefined ? {} : { amount },
      timeoutMs: 60_000,
      headers: op === 'void' && password ? { 'x-supervisor-password': password } : {},
    });
    message.dataset.code = '';
    message.dataset.state = view.state;
    // 202: the answer was lost; the row stays capturing or voiding until the outbox settles it.
    const pending = view.state === 'capturing' || view.state === 'voiding';
    say(message, () => (pending ? t('cnp.pending.change') : fill(t(`cnp.done.${op}`), { id })));
  } catch (e) {
    refusal(message, e instanceof ApiFailure ? e : { code: 'UNREACHABLE' });
  }
  await listPreauths();
}

/** The open pre-authorizations (a card-not-present sale `authorized`), newest first; on `cashier-token` the list holds only the sales this screen started. */
async function listPreauths() {
  let payments;
  try {
    ({ payments } = await api('/v1/payments?status=approved'));
  } catch (e) {
    return refusal($('cnp-message'), e);
  }
  const open = payments.filter((p) => p.state === 'authorized');
  const rows = open.map((p) => {
    const tr = document.createElement('tr');
    tr.dataset.id = String(p.id);
    const amount = document.createElement('input');
    amount.inputMode = 'decimal';
    amount.className = 'cnp-capture-amount';
    const input = document.createElement('td');
    input.append(amount);
    const actions = document.createElement('td');
    actions.append(
      button('cnp.capture', 'primary', () => void change(p.id, 'capture', amount.value.trim())),
      button('cnp.void', 'danger', () => void change(p.id, 'void', '')),
    );
    tr.append(
      cell(String(p.id)),
      cell(hostTime(p.createdAt)),
      cell(money(p.amount, currentLang())),
      cell(p.card?.maskedPan ?? '—'),
      input,
      actions,
    );
    return tr;
  });
  $('cnp-preauths')
    .querySelector('tbody')
    .replaceChildren(...rows);
  $('cnp-preauths-none').hidden = rows.length > 0;
}

/** Wires the section (its markup is in cashier.html); `show(true)` opens it in place of the card sale's form. */
export function mountCnp(show) {
  $('cnp-open').addEventListener('click', () => {
    show(true);
    void listPreauths();
    void listCards();
  });
  mountCnpCards((id) => void start(undefined, id));
  $('cnp-back').addEventListener('click', () => show(false));
  $('cnp-form').addEventListener('submit', (ev) => void start(ev));
  $('cnp-cancel').addEventListener('click', () => current?.abort.abort());
  $('cnp-again').addEventListener('click', () => {
    current = undefined;
    showForm(true);
    $('cnp-amount').value = '';
    $('cnp-amount').focus();
  });
}
