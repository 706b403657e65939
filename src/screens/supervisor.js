// The supervisor's page: today's payments (GET /v1/payments), the outbox and health, the alarms
// health holds; in #operations the day report, its close and voids (supervisor-operations.js).
import { api, followEvents, money, token, environmentBanner } from './api.js';
import { applyLang, currentLang, langToggle, t } from './i18n.js';
import { mountOperations, paintDay } from './supervisor-operations.js';

const $ = (id) => document.getElementById(id);
const REFRESH_MS = 5000;

token();
void environmentBanner();
applyLang();
langToggle($('lang'), () => void refresh());
mountOperations();

/** True when `iso` is on the same local day as now. */
function today(iso) {
  return new Date(iso).toDateString() === new Date().toDateString();
}

function cell(row, text) {
  const td = document.createElement('td');
  td.textContent = text ?? '';
  row.append(td);
}

function paintPayments(payments) {
  const body = $('payments').tBodies[0];
  const rows = payments.filter((p) => today(p.createdAt)).map((p) => {
    const tr = document.createElement('tr');
    tr.dataset.status = p.status;
    cell(tr, String(p.id));
    cell(tr, new Date(p.createdAt).toLocaleTimeString(currentLang() === 'en' ? 'en-GB' : 'pt-BR'));
    cell(tr, money(p.amount, currentLang()));
    cell(tr, t(`method.${p.method}`, p.method));
    cell(tr, p.status);
    cell(tr, p.authorizationCode);
    cell(tr, p.nsu);
    cell(tr, p.card?.maskedPan);
    return tr;
  });
  body.replaceChildren(...rows);
}

function paintHealth(h) {
  const facts = [
    ['status', h.status],
    ['pending', h.outbox?.pending],
    ['dead letters', h.outbox?.deadLetters],
    ['oldest deadline', h.outbox?.oldestDeadline ?? '—'],
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
      li.textContent = `${a.since ? new Date(a.since).toLocaleTimeString(currentLang() === 'en' ? 'en-GB' : 'pt-BR') : ''} ${a.code}: ${a.message ?? ''}`;
      return li;
    }),
  );
  $('problems').replaceChildren(
    ...(h.problems ?? []).map((p) => {
      const li = document.createElement('li');
      li.textContent = p;
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
