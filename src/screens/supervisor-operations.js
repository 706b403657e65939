// The supervisor's operations, drawn into #operations: the day's report (GET
// /v1/day/report) with its close, and a void of a payment. Closing the day and voiding both need
// the supervisor's password, sent as X-Supervisor-Password and never kept by the page.
import { ApiFailure, money, parseAmount, showQr, token } from './api.js';
import { currentLang, errorText, hostDateTime, t } from './i18n.js';

const $ = (id) => document.getElementById(id);
const POLL_MS = 500;

/** One JSON call with the token and, when given, the supervisor's password. Throws ApiFailure. */
async function call(path, { method = 'GET', body, password } = {}) {
  const headers = { authorization: `Bearer ${token()}`, accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (password) headers['x-supervisor-password'] = password;
  let res;
  try {
    res = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
      signal: AbortSignal.timeout(15_000),
    });
  } catch (e) {
    throw new ApiFailure(0, 'UNREACHABLE', String(e?.message ?? e));
  }
  const data = await res.json().catch(() => ({}));
  if (!res.ok)
    throw new ApiFailure(
      res.status,
      data.error?.code ?? `HTTP_${res.status}`,
      data.error?.message ?? res.statusText,
      data.error?.field,
    );
  return data;
}

function facts(dl, pairs) {
  dl.replaceChildren(
    ...pairs.flatMap(([k, v]) => {
      const dt = document.createElement('dt');
      dt.textContent = k;
      const dd = document.createElement('dd');
      dd.textContent = String(v ?? '—');
      return [dt, dd];
    }),
  );
}

/** The refusal each message element shows, to repaint it in a new language. */
const failures = new Map();

function failure(el, e) {
  failures.set(el, e);
  el.textContent = `${t('error.generic', 'Não foi possível: ')}${errorText(e)}`;
  el.dataset.code = e.code ?? '';
}

/** Repaints the operations' words in the page's language (the language button calls it). */
export async function repaintOperations() {
  for (const [el, e] of failures) if (el.dataset.code) failure(el, e);
  await paintDay();
}

/** The day's report: counts, totals and whether it was closed. */
export async function paintDay() {
  try {
    const r = await call('/v1/day/report');
    const lang = currentLang();
    $('day-report').dataset.date = r.date;
    facts($('day-report'), [
      [t('day.date', 'Dia'), r.date],
      [t('day.sales', 'Vendas'), r.counts.sales],
      [t('day.voids', 'Cancelamentos'), r.counts.voids],
      [t('day.sales-amount', 'Total vendido'), money(r.totals.salesAmount, lang)],
      [t('day.voids-amount', 'Total cancelado'), money(r.totals.voidsAmount, lang)],
      [t('day.needs-refund', 'Estornos pendentes'), money(r.totals.needsRefundAmount, lang)],
      [t('day.net', 'Líquido'), money(r.totals.net, lang)],
      [t('day.closed', 'Fechado'), r.closedAt ? hostDateTime(r.closedAt) : t('no', 'Não')],
    ]);
  } catch (e) {
    failure($('day-message'), e);
  }
}

async function closeDay() {
  const message = $('day-message');
  message.textContent = '';
  try {
    const r = await call('/v1/day/close', { method: 'POST', password: $('supervisor-password').value });
    message.dataset.code = '';
    message.textContent = `${t('day.closed-now', 'Dia fechado')}: ${r.date} (${r.printOutcome ? t(`print.${r.printOutcome}`, r.printOutcome) : t('print.skipped')})`;
    await paintDay();
  } catch (e) {
    failure(message, e);
  }
}

/** Follows a void until it leaves `pending`, showing its status (and the cancellation code while it shows). */
async function followVoid(id) {
  const status = $('void-status');
  for (;;) {
    let v;
    try {
      v = await call(`/v1/voids/${id}`);
    } catch (e) {
      failure(status, e);
      return;
    }
    failures.delete(status);
    status.dataset.code = '';
    status.dataset.status = v.status;
    status.dataset.id = String(v.id);
    status.textContent = `${t('void.void', 'Cancelamento')} ${v.merchantVoidId}: ${t(`void.status.${v.status}`, v.status)} (${money(v.amount, currentLang())})`;
    if (v.cancellationCode && v.status === 'pending') {
      const img = $('void-qr');
      if (img.dataset.code !== v.cancellationCode.qrCode) {
        img.dataset.code = v.cancellationCode.qrCode;
        await showQr(img, v.cancellationCode.qrCode).catch(() => undefined);
      }
    } else $('void-qr').hidden = true;
    if (v.status !== 'pending') {
      await paintDay();
      return;
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

async function startVoid(ev) {
  ev.preventDefault();
  const status = $('void-status');
  status.textContent = '';
  status.dataset.status = '';
  const id = $('void-payment').value.trim();
  const typed = $('void-amount').value.trim();
  const amount = typed === '' ? undefined : parseAmount(typed);
  if (!/^\d+$/.test(id) || (typed !== '' && amount === undefined)) {
    failure(status, { message: t('error.amount', 'Valor inválido'), code: 'INVALID_FIELD' });
    return;
  }
  try {
    const v = await call(`/v1/payments/${id}/void`, {
      method: 'POST',
      body: amount === undefined ? {} : { amount },
      password: $('supervisor-password').value,
    });
    await followVoid(v.id);
  } catch (e) {
    failure(status, e);
  }
}

/** Wires the operations' controls (the markup is in supervisor.html) and paints the day. */
export function mountOperations() {
  $('day-close').addEventListener('click', () => void closeDay());
  $('void-form').addEventListener('submit', (ev) => void startVoid(ev));
  void paintDay();
}
