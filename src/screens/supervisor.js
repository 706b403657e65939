// The supervisor's page: today's payments (GET /v1/payments), the outbox and health, the alarms
// health holds; in #operations the day report, its close and voids (supervisor-operations.js).
import { api, followEvents, money, token, environmentBanner } from './api.js';
import {
  alarmText,
  applyLang,
  currentLang,
  hostDateTime,
  hostDay,
  hostTime,
  langToggle,
  problemText,
  statusText,
  t,
} from './i18n.js';
import { mountOperations, paintDay, repaintOperations } from './supervisor-operations.js';

const $ = (id) => document.getElementById(id);
const REFRESH_MS = 5000;

token();
void environmentBanner();
applyLang();
langToggle($('lang'), () => void refresh().then(repaintOperations));
mountOperations();

/** True when `iso` is in today's business day (America/Sao_Paulo), whatever the browser's zone. */
function today(iso) {
  return hostDay(iso) === hostDay(new Date().toISOString());
}

function cell(row, text, raw = false) {
  const td = document.createElement('td');
  td.textContent = text ?? '';
  // Identifiers (authorization code, NSU, masked card) are the same in any language.
  if (raw) td.dataset.raw = '';
  row.append(td);
  return td;
}

function paintPayments(payments) {
  const body = $('payments').tBodies[0];
  const rows = payments
    .filter((p) => today(p.createdAt))
    .map((p) => {
      const tr = document.createElement('tr');
      tr.dataset.status = p.status;
      cell(tr, String(p.id));
      cell(tr, hostTime(p.createdAt)).dataset.at = p.createdAt;
      cell(tr, money(p.amount, currentLang()));
      cell(tr, t(`method.${p.method}`, p.method));
      cell(tr, statusText(p.status));
      cell(tr, p.authorizationCode, true);
      cell(tr, p.nsu, true);
      cell(tr, p.card?.maskedPan, true);
      return tr;
    });
  body.replaceChildren(...rows);
}

function paintHealth(h) {
  const facts = [
    [t('health.status'), t(`health.${h.status}`, h.status)],
    [t('outbox.pending'), h.outbox?.pending],
    [t('outbox.dead-letters'), h.outbox?.deadLetters],
    [t('outbox.oldest-deadline'), h.outbox?.oldestDeadline ? hostDateTime(h.outbox.oldestDeadline) : '—'],
  ];
  $('outbox').replaceChildren(
    ...facts.flatMap(([k, v]) => {
      const dt = document.createElement('dt');
      dt.textContent = k;
      const dd = document.createElement('dd');
      dd.textContent = String(v ?? '—');
      return [dt, dd];
    }),
  );
  // The alarms that hold now and the engines' recent ones, as health keeps them (nothing is lost
  // when the page was closed while one was raised).
  $('alarms').replaceChildren(
    ...(h.alarms ?? []).map((a) => {
      const li = document.createElement('li');
      li.dataset.severity = a.severity;
      li.dataset.code = a.code;
      // In English the daemon's own message (it has the details); in Portuguese ours, by the code.
      li.textContent = `${a.since ? hostTime(a.since) : ''} ${currentLang() === 'en' && a.message ? a.message : alarmText(a)}`;
      return li;
    }),
  );
  $('problems').replaceChildren(
    ...(h.problems ?? []).map((p) => {
      const li = document.createElement('li');
      li.dataset.problem = p;
      li.textContent = problemText(p);
      return li;
    }),
  );
}

async function refresh() {
  const [list, health] = await Promise.allSettled([api('/v1/payments'), api('/v1/health')]);
  if (list.status === 'fulfilled') paintPayments(list.value.payments);
  if (health.status === 'fulfilled') paintHealth(health.value);
  await paintDay();
}

// A state change or an alarm: read the list and health again.
followEvents((e) => {
  if (e.type === 'state' || e.type === 'alarm') void refresh();
});
void refresh();
setInterval(() => void refresh(), REFRESH_MS);
