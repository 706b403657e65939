// The cashier's screen: amount, method, installments; the payment's prompts, QR and result; the
// receipt question, reprint and cancel.
import { ApiFailure, followEvents, money, parseAmount, showQr, token, environmentBanner } from './api.js';
import { alarmText, applyLang, currentLang, errorText, langToggle, t } from './i18n.js';
import { feedCnp, mountCnp, repaintCnp } from './cashier-cnp.js';
import { PaymentRun, stateText } from './payment.js';
import { answerReceipt, reprint, showReceipt } from './receipt.js';

const $ = (id) => document.getElementById(id);
let run;

token();
void environmentBanner();
applyLang();
// A new language repaints what the page wrote itself: the run's total, prompt and result.
langToggle($('lang'), () => {
  if (!$('cnp').hidden) repaintCnp();
  if (!run?.view) return;
  $('total').textContent = `${money(run.view.amount, currentLang())} — ${t(`method.${run.view.method}`)}`;
  if (run.finished) void finished(run.view);
  else $('prompt').textContent = stateText(run.view.state, run.view.method);
});

const method = () => document.querySelector('input[name=method]:checked').value;
const syncMethod = () => {
  $('installments-row').hidden = method() !== 'credit';
  $('payer').hidden = method() !== 'pix';
};
$('methods').addEventListener('change', syncMethod);
syncMethod();

followEvents(
  (e) => {
    run?.feed(e);
    feedCnp(e);
  },
  (up) => ($('link').hidden = up),
);
// A sale without the card present: its own section in place of the card sale's form (cashier-cnp.js).
mountCnp((open) => {
  $('cnp').hidden = !open;
  $('sale').hidden = open;
});

function fail(message) {
  $('error').textContent = message;
  $('error').hidden = false;
}

function request() {
  const amount = parseAmount($('amount').value);
  if (amount === undefined) return undefined;
  const body = { amount, method: method(), confirmation: 'auto' };
  if (body.method === 'credit') body.installments = Math.max(1, Math.min(12, Number($('installments').value) || 1));
  if (body.method === 'pix')
    body.payer = { name: $('payer-name').value.trim(), document: $('payer-document').value.trim() };
  return body;
}

function showRun(body) {
  $('sale').hidden = true;
  $('run').hidden = false;
  $('total').textContent = `${money(body.amount, currentLang())} — ${t(`method.${body.method}`)}`;
  $('prompt').textContent = stateText('started', body.method);
  $('prompt').dataset.source = 'page';
  for (const id of ['qr', 'question', 'alarm', 'result', 'receipt', 'reprint', 'again']) $(id).hidden = true;
  $('cancel').hidden = false;
}

async function finished(view) {
  $('qr').hidden = true;
  $('question').hidden = true;
  $('cancel').hidden = true;
  $('prompt').textContent = '';
  const result = $('result');
  result.hidden = false;
  result.className = `result ${view.status === 'confirmed' ? 'ok' : 'bad'}`;
  result.textContent = stateText(view.state);
  // The acquirer's own words for a refusal, in Portuguese whatever the page's language (lang says so).
  if (view.status !== 'confirmed' && view.returnMessage) {
    const host = document.createElement('span');
    host.lang = 'pt-BR';
    host.className = 'host-message';
    host.textContent = view.returnMessage;
    result.append(' — ', host);
  }
  $('again').hidden = false;
  if (view.status === 'confirmed') {
    $('reprint').hidden = false;
    await showReceipt($('receipt'), view);
  }
}

$('sale').addEventListener('submit', (ev) => {
  ev.preventDefault();
  $('error').hidden = true;
  const body = request();
  if (!body) return fail(t('error.amount'));
  run = new PaymentRun({
    prompt: (text, source, lang) => {
      $('prompt').textContent = text;
      $('prompt').dataset.source = source;
      // The pinpad's own text (a message the page has no words for) is in Portuguese.
      if (lang) $('prompt').lang = lang;
      else $('prompt').removeAttribute('lang');
    },
    qr: (code) => void showQr($('qr'), code).catch(() => undefined),
    question: () => ($('question').hidden = false),
    // What needs a person (e.g. an undo the host refused): said on screen as the daemon words it.
    alarm: (e) => {
      $('alarm').dataset.code = e.code;
      $('alarm').textContent = currentLang() === 'en' && e.message ? e.message : alarmText(e);
      $('alarm').hidden = false;
    },
    done: (view) => void finished(view),
  });
  showRun(body);
  run.start(body).catch((e) => {
    run = undefined;
    $('run').hidden = true;
    $('sale').hidden = false;
    fail(e instanceof ApiFailure && e.code === 'BUSY' ? t('error.busy') : `${t('error.generic')}${errorText(e)}`);
  });
});

$('cancel').addEventListener('click', () => void run?.cancel());

for (const [id, printed] of [
  ['printed-yes', true],
  ['printed-no', false],
]) {
  $(id).addEventListener('click', () => {
    $('question').hidden = true;
    if (run?.id !== undefined)
      void answerReceipt(run.id, printed)
        .catch((e) => fail(`${t('error.generic')}${errorText(e)}`))
        .then(() => run?.refresh());
  });
}

$('reprint').addEventListener('click', async () => {
  const view = run?.view;
  if (!view) return;
  if (!(await reprint(view.id))) {
    $('result').textContent = t('reprint.unavailable');
    await showReceipt($('receipt'), view);
  }
});

$('again').addEventListener('click', () => {
  run = undefined;
  $('run').hidden = true;
  $('sale').hidden = false;
  $('amount').value = '';
  $('amount').focus();
});
