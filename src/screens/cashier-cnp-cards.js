// The cashier's saved cards and recurrences (card not present), beside the phone order in cashier-cnp.js:
// the saved cards (GET /v1/card-not-present/cards: brand and masked number only, never a token), one
// removed with the supervisor's password (DELETE …/cards/{id}), a sale by one (`savedCardId`, through the
// phone order's own start); a recurrence created (POST /v1/card-not-present/recurrences, its card typed on
// the pinpad or a saved one) and shown as its host shows it (GET …/recurrences/{id}). The webservice 1.5
// schedules none: its 501 CNP_NOT_OFFERED is said in the page's language.
import { api, ApiFailure, parseAmount } from './api.js';
import { errorText, fill, t } from './i18n.js';
import { button, cell } from './rows.js';

const $ = (id) => document.getElementById(id);
const CARDS = '/v1/card-not-present/cards';
const RECURRENCES = '/v1/card-not-present/recurrences';
/** A typed card's recurrence waits while the card is typed (four prompts of up to 60 s). */
const TYPING_MS = 5 * 60_000;

/** What each element of ours says, to say it again in a new language. */
const painters = new Map();

function say(el, paint, code = '') {
  painters.set(el, paint);
  el.dataset.code = code;
  el.textContent = paint();
  el.hidden = false;
}

function refusal(el, e) {
  const failure = e instanceof ApiFailure ? e : { code: 'UNREACHABLE' };
  say(el, () => `${t('error.generic')}${errorText(failure)}`, failure.code ?? '');
}

export function repaintCnpCards() {
  for (const [el, paint] of painters) el.textContent = paint();
  void listCards();
}

async function remove(id) {
  const password = $('cnp-supervisor-password').value;
  try {
    await api(`${CARDS}/${id}`, {
      method: 'DELETE',
      headers: password ? { 'x-supervisor-password': password } : {},
    });
    say($('cnp-cards-message'), () => fill(t('cnp.card.removed'), { id }));
  } catch (e) {
    refusal($('cnp-cards-message'), e);
  }
  await listCards();
}

/** The saved cards, newest first, each sold by or removed; the recurrence form's card choice follows them. */
export async function listCards() {
  let cards;
  try {
    ({ cards } = await api(CARDS));
  } catch (e) {
    return refusal($('cnp-cards-message'), e);
  }
  const rows = cards.map((c) => {
    const tr = document.createElement('tr');
    tr.dataset.id = String(c.id);
    const actions = document.createElement('td');
    actions.append(
      button('cnp.card.sell', 'primary', () => sellWith(c.id)),
      button('cnp.card.remove', 'danger', () => void remove(c.id)),
    );
    tr.append(cell(String(c.id)), cell(c.brand), cell(c.maskedPan), actions);
    return tr;
  });
  $('cnp-cards')
    .querySelector('tbody')
    .replaceChildren(...rows);
  $('cnp-cards-none').hidden = rows.length > 0;
  const choice = $('cnp-recurrence-card');
  const chosen = choice.value;
  const typed = document.createElement('option');
  typed.value = '';
  typed.dataset.i18n = 'cnp.recurrence.typed';
  typed.textContent = t('cnp.recurrence.typed');
  const saved = cards.map((c) => {
    const o = document.createElement('option');
    o.value = String(c.id);
    o.textContent = `${c.brand} ${c.maskedPan}`;
    return o;
  });
  choice.replaceChildren(typed, ...saved);
  choice.value = cards.some((c) => String(c.id) === chosen) ? chosen : '';
}

/** Set by `mountCnpCards`: starts the phone order's sale by saved card `id` (cashier-cnp.js). */
let sellWith = () => undefined;

/** The recurrence as its host shows it now, in words. */
async function showRecurrence(id) {
  const out = $('cnp-recurrence');
  try {
    const r = await api(`${RECURRENCES}/${id}`);
    out.dataset.status = r.status;
    say(out, () =>
      fill(t('cnp.recurrence.shown'), {
        id: r.recurrentPaymentId,
        status: t(`cnp.recurrence.status.${r.status}`, r.status),
        interval: t(`cnp.interval.${r.interval}`, r.interval),
        next: r.nextDate ?? '—',
      }),
    );
  } catch (e) {
    refusal(out, e);
  }
}

/** Waits for the first charge's outcome; a recurrence is opened only by an approved one. */
async function firstCharge(view) {
  let v = view;
  for (let n = 0; v.state === 'sending' && n < 300; n++) {
    await new Promise((r) => setTimeout(r, 400));
    v = await api(`/v1/card-not-present/sales/${view.id}`).catch(() => v);
  }
  return v;
}

async function createRecurrence(ev) {
  ev.preventDefault();
  const out = $('cnp-recurrence');
  delete out.dataset.status;
  const amount = parseAmount($('cnp-amount').value);
  if (amount === undefined) return refusal(out, new ApiFailure(400, 'INVALID_FIELD', '', 'amount'));
  const card = $('cnp-recurrence-card').value;
  const body = { amount, interval: $('cnp-interval').value };
  if ($('cnp-end').value) body.endDate = $('cnp-end').value;
  if (card) body.savedCardId = Number(card);
  else {
    body.holder = $('cnp-holder').value.trim().toUpperCase();
    if ($('cnp-brand').value) body.brand = $('cnp-brand').value;
    say(out, () => t('cnp.typing'));
  }
  try {
    const first = await firstCharge(await api(RECURRENCES, { method: 'POST', body, timeoutMs: TYPING_MS }));
    if (first.state !== 'captured') {
      out.dataset.state = first.state;
      return say(out, () => t(`cnp.state.${first.state}`, first.state));
    }
    await showRecurrence(first.id);
  } catch (e) {
    refusal(out, e);
  }
}

/** Wires the saved cards and the recurrence form (their markup is in cashier.html); `sell(id)` sells by a saved card. */
export function mountCnpCards(sell) {
  sellWith = sell;
  $('cnp-recurrence-form').addEventListener('submit', (ev) => void createRecurrence(ev));
}
