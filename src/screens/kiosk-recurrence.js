// The subscription kiosk (a gym, a parking monthly pass): `kiosk.html?recurrence=monthly&amount=9990`.
// The customer taps, writes the name printed on the card, types the card on the pinpad (its prompts
// relayed from the event stream, told apart by this request's Idempotency-Key), and the kiosk creates
// the recurrence (POST /v1/card-not-present/recurrences) and shows its status as the host shows it
// (GET …/recurrences/{id}). A backend that schedules none (the webservice 1.5: 501 CNP_NOT_OFFERED,
// before anything is typed) puts this flow out of service. The page never sees a digit of the card.
import { api, ApiFailure, money } from './api.js';
import { currentLang, errorText, fill, t } from './i18n.js';

const $ = (id) => document.getElementById(id);
const RECURRENCES = '/v1/card-not-present/recurrences';
const INTERVALS = ['monthly', 'bimonthly', 'quarterly', 'semiannual', 'annual'];
/** The typing takes four prompts of up to 60 s each on the pinpad; the request stays open meanwhile. */
const TYPING_MS = 5 * 60_000;
const POLL_MS = 400;
/** The states a first charge's outcome is known in. */
const SETTLED = new Set(['captured', 'declined', 'failed', 'undone', 'needs-refund', 'dead-letter']);

const asked = new URLSearchParams(location.search).get('recurrence')?.toLowerCase() ?? '';
/** The interval this kiosk sells (`?recurrence=`), or undefined: a kiosk of single sales. */
export const RECURRENCE = INTERVALS.includes(asked) ? asked : undefined;

/** The subscription under way: its Idempotency-Key, its abort, its sale id once answered. */
let current;
/** The first charges' states seen on the stream (a screen's stream holds only its own). */
const states = new Map();
/** Set once the backend answered CNP_NOT_OFFERED: this flow stays out of service. */
let notOffered = false;

/** Why this flow cannot run now ('' when it can). */
export function recurrenceOut() {
  return RECURRENCE && notOffered ? 'recurrence-not-offered' : '';
}

/** The offer in words: the amount and how often it is charged. */
export function paintOffer(amount) {
  $('subscribe-offer').textContent = fill(t('kiosk.recurrence.offer'), {
    amount: money(amount, currentLang()),
    interval: t(`cnp.interval.${RECURRENCE}`, RECURRENCE),
  });
}

/** Every event of the stream: this request's prompts while the card is typed, its first charge's state. */
export function feedRecurrence(e) {
  if (!current || e.kind !== 'cnp') return;
  if (e.type === 'prompt' && current.id === undefined && e.idempotencyKey === current.key) {
    $('prompt').dataset.prompt = e.prompt;
    $('prompt').textContent = t(`cnp.prompt.${e.prompt}`, e.text);
    current.prompted();
  } else if (e.type === 'state' && typeof e.id === 'number') states.set(e.id, e.state);
}

/** Stops the subscription under way (its typing too, when the request is still open). */
export function stopRecurrence() {
  current?.abort.abort();
  current = undefined;
}

/** As printed on the card: the host takes letters and spaces only, without accents. */
function holderOf(text) {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z ]/g, '')
    .trim()
    .toUpperCase()
    .slice(0, 25);
}

/** The recurrence once its first charge settled: its status, or the charge's state when it opened none. */
async function outcome(run) {
  for (let n = 0; n < 600; n++) {
    if (run !== current) return undefined;
    const state = states.get(run.id);
    if (state !== undefined && state !== 'captured' && SETTLED.has(state)) return { state };
    try {
      return { recurrence: await api(`${RECURRENCES}/${run.id}`) };
    } catch (e) {
      // 409 NOT_ALLOWED while the first charge is not answered yet; 503 while the host does not tell.
      if (!(e instanceof ApiFailure) || ![409, 503].includes(e.status)) throw e;
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  return { state: 'sending' };
}

/**
 * Creates the recurrence of `amount` with the card typed on the pinpad; `ui` shows the screens
 * (`paying(text)`, `result(ok, text)`, `outOfService()`).
 */
export async function subscribe(amount, ui) {
  const holder = holderOf($('subscribe-holder').value);
  if (!holder) return $('subscribe-holder').focus();
  const run = { key: `kiosk-rec-${crypto.randomUUID()}`, abort: new AbortController(), prompted: () => ui.paying() };
  stopRecurrence();
  current = run;
  $('prompt').dataset.prompt = '';
  ui.paying(t('cnp.typing'));
  try {
    const sale = await api(RECURRENCES, {
      method: 'POST',
      body: { amount, interval: RECURRENCE, holder },
      headers: { 'idempotency-key': run.key },
      timeoutMs: TYPING_MS,
      signal: run.abort.signal,
    });
    run.id = sale.id;
    if (SETTLED.has(sale.state)) states.set(sale.id, sale.state);
    ui.paying(t('cnp.state.sending'));
    const got = await outcome(run);
    if (!got) return undefined;
    if (got.state) return ui.result(false, t(`cnp.state.${got.state}`, got.state));
    const r = got.recurrence;
    return ui.result(
      true,
      fill(t('kiosk.recurrence.done'), {
        status: t(`cnp.recurrence.status.${r.status}`, r.status),
        interval: t(`cnp.interval.${r.interval}`, r.interval),
        next: r.nextDate ?? '—',
      }),
    );
  } catch (e) {
    if (run !== current) return undefined;
    if (e instanceof ApiFailure && e.code === 'CNP_NOT_OFFERED') {
      notOffered = true;
      return ui.outOfService();
    }
    return ui.result(false, `${t('error.generic')}${errorText(e)}`);
  } finally {
    if (run === current) current = undefined;
    $('subscribe-holder').value = '';
  }
}
