// What the screens say, in Portuguese (the default) and English. One table; `data-i18n` names a key
// (`data-i18n-alt` an image's alternative text). One language at a time: the daemon's own words
// (health's problems, alarm messages, refusals) are shown through their codes, in the page's language.
import { CNP_TEXT } from './i18n-cnp.js';
import { PROBLEMS, TERMINAL_TEXT } from './i18n-terminal.js';

const TEXT = {
  pt: {
    'title.cashier': 'Caixa',
    'title.kiosk': 'Autoatendimento',
    'title.supervisor': 'Supervisor',
    amount: 'Valor (R$)',
    method: 'Forma de pagamento',
    'method.credit': 'Crédito',
    'method.debit': 'Débito',
    'method.voucher': 'Voucher',
    'method.wallet-qr': 'QR carteira',
    'method.pix': 'Pix',
    installments: 'Parcelas',
    charge: 'Cobrar',
    cancel: 'Cancelar',
    reprint: 'Reimprimir',
    'new-sale': 'Nova venda',
    'receipt.question': 'O comprovante saiu?',
    yes: 'Sim',
    no: 'Não',
    'tap-to-pay': 'Toque para pagar',
    'enter-amount': 'Digite o valor',
    'choose-method': 'Como deseja pagar?',
    'receipt.choose': 'Deseja o comprovante?',
    'receipt.print': 'Imprimir',
    'receipt.screen': 'Ver na tela',
    'receipt.none': 'Sem comprovante',
    'receipt.paper-out': 'A impressora não pode imprimir agora: o comprovante será mostrado na tela.',
    'receipt.title': 'Comprovante',
    'receipt.order': 'PEDIDO',
    'receipt.unavailable': 'Comprovante indisponível.',
    'reprint.unavailable': 'Reimpressão indisponível; comprovante na tela.',
    ok: 'OK',
    back: 'Voltar',
    clear: 'Limpar',
    continue: 'Continuar',
    'out-of-service': 'Fora de serviço',
    'out-of-service.detail': 'Voltaremos em instantes.',
    'checking-printer': 'Verificando a impressora…',
    'payer.name': 'Nome do pagador',
    'payer.document': 'CPF/CNPJ do pagador',
    'scan-qr': 'Escaneie o QR code com o app',
    today: 'Pagamentos de hoje',
    outbox: 'Fila de envio',
    operations: 'Operações',
    'operations.soon': 'Relatório do dia e cancelamentos: em breve.',
    'supervisor.password': 'Senha do supervisor',
    'day.report': 'Relatório do dia',
    'day.close': 'Fechar o dia',
    'day.closed-now': 'Dia fechado',
    'void.title': 'Cancelar um pagamento',
    'void.payment': 'Pagamento nº',
    'void.amount': 'Valor (vazio: o restante)',
    'void.start': 'Cancelar',
    'void.void': 'Cancelamento',
    'void.status.pending': 'aguardando (cartão ou QR de cancelamento)',
    'void.status.approved': 'aprovado',
    'void.status.expired': 'QR de cancelamento expirado',
    alarms: 'Alarmes',
    'events.offline': 'Sem conexão com o terminal',
    'error.amount': 'Valor inválido',
    'error.busy': 'Terminal ocupado com outro pagamento',
    'error.generic': 'Não foi possível: ',
    'state.started': 'Insira, passe ou aproxime o cartão',
    'state.card-read': 'Cartão lido',
    'state.authorizing': 'Autorizando…',
    'state.finishing-chip': 'Finalizando com o cartão…',
    'state.approved': 'Aprovada',
    'state.printing': 'Aprovada — imprimindo o comprovante',
    'state.awaiting-decision': 'Aprovada — aguardando confirmação',
    'state.confirming': 'Aprovada',
    'state.confirmed': 'Aprovada',
    'state.showing': 'Escaneie o QR code com o app',
    'state.creating': 'Gerando o QR code…',
    'state.declined': 'Recusada',
    'state.undoing': 'Desfeita',
    'state.undone': 'Desfeita',
    'state.cancelling': 'Cancelada',
    'state.cancelled': 'Cancelada',
    'state.aborted': 'Cancelada',
    'state.refused': 'Cartão não aceito nesta forma de pagamento',
    'state.expiring': 'QR code expirado',
    'state.expired': 'QR code expirado',
    'state.failed': 'Falhou',
    'state.needs-refund': 'Desfeita — estorno pendente',
    'state.dead-letter': 'Falhou',
    'state.refunding': 'Estornando…',
    'state.refunded': 'Estornada',
    'prompt.insert-card': 'Insira, passe ou aproxime o cartão',
    'prompt.enter-pin': 'Digite a senha no pinpad',
    'prompt.choose-product': 'Escolha a opção no pinpad',
    'prompt.remove-card': 'Retire o cartão',
    'prompt.processing': 'Processando…',
    'prompt.wrong-pin': 'Senha incorreta',
    'prompt.show-qr': 'Escaneie o QR code com o app',
    'prompt.see-phone': 'Veja as instruções no celular',
    'prompt.one-card': 'Apresente apenas um cartão',
    'prompt.typed-entry': 'Digite o número do cartão no pinpad',
  },
  en: {
    'title.cashier': 'Cashier',
    'title.kiosk': 'Self-service',
    'title.supervisor': 'Supervisor',
    amount: 'Amount (R$)',
    method: 'Payment method',
    'method.credit': 'Credit',
    'method.debit': 'Debit',
    'method.voucher': 'Voucher',
    'method.wallet-qr': 'Wallet QR',
    'method.pix': 'Pix',
    installments: 'Installments',
    charge: 'Charge',
    cancel: 'Cancel',
    reprint: 'Reprint',
    'new-sale': 'New sale',
    'receipt.question': 'Did the receipt come out?',
    yes: 'Yes',
    no: 'No',
    'tap-to-pay': 'Touch to pay',
    'enter-amount': 'Enter the amount',
    'choose-method': 'How would you like to pay?',
    'receipt.choose': 'Would you like a receipt?',
    'receipt.print': 'Print',
    'receipt.screen': 'Show on screen',
    'receipt.none': 'No receipt',
    'receipt.paper-out': 'The printer cannot print now: the receipt will be shown on screen.',
    'receipt.title': 'Receipt',
    'receipt.order': 'ORDER',
    'receipt.unavailable': 'Receipt not available.',
    'reprint.unavailable': 'Reprint not available; receipt on screen.',
    ok: 'OK',
    back: 'Back',
    clear: 'Clear',
    continue: 'Continue',
    'out-of-service': 'Out of service',
    'out-of-service.detail': 'We will be back shortly.',
    'checking-printer': 'Checking the printer…',
    'payer.name': "Payer's name",
    'payer.document': "Payer's CPF/CNPJ",
    'scan-qr': 'Scan the QR code with your app',
    today: "Today's payments",
    outbox: 'Outbox',
    operations: 'Operations',
    'operations.soon': 'Day report and voids: coming.',
    'supervisor.password': 'Supervisor password',
    'day.report': "The day's report",
    'day.close': 'Close the day',
    'day.closed-now': 'Day closed',
    'void.title': 'Void a payment',
    'void.payment': 'Payment no.',
    'void.amount': 'Amount (empty: what remains)',
    'void.start': 'Void',
    'void.void': 'Void',
    'void.status.pending': 'waiting (card or cancellation QR)',
    'void.status.approved': 'approved',
    'void.status.expired': 'cancellation QR expired',
    alarms: 'Alarms',
    'events.offline': 'No connection to the terminal',
    'error.amount': 'Invalid amount',
    'error.busy': 'The terminal is busy with another payment',
    'error.generic': 'Could not do it: ',
    'state.started': 'Insert, swipe or tap the card',
    'state.card-read': 'Card read',
    'state.authorizing': 'Authorizing…',
    'state.finishing-chip': 'Finishing with the card…',
    'state.approved': 'Approved',
    'state.printing': 'Approved — printing the receipt',
    'state.awaiting-decision': 'Approved — awaiting confirmation',
    'state.confirming': 'Approved',
    'state.confirmed': 'Approved',
    'state.showing': 'Scan the QR code with your app',
    'state.creating': 'Creating the QR code…',
    'state.declined': 'Declined',
    'state.undoing': 'Undone',
    'state.undone': 'Undone',
    'state.cancelling': 'Cancelled',
    'state.cancelled': 'Cancelled',
    'state.aborted': 'Cancelled',
    'state.refused': 'Card not accepted for this payment method',
    'state.expiring': 'QR code expired',
    'state.expired': 'QR code expired',
    'state.failed': 'Failed',
    'state.needs-refund': 'Undone — refund pending',
    'state.dead-letter': 'Failed',
    'state.refunding': 'Refunding…',
    'state.refunded': 'Refunded',
    'prompt.insert-card': 'Insert, swipe or tap the card',
    'prompt.enter-pin': 'Enter your PIN on the pinpad',
    'prompt.choose-product': 'Choose the option on the pinpad',
    'prompt.remove-card': 'Remove the card',
    'prompt.processing': 'Processing…',
    'prompt.wrong-pin': 'Wrong PIN',
    'prompt.show-qr': 'Scan the QR code with your app',
    'prompt.see-phone': 'Check your phone',
    'prompt.one-card': 'Present one card only',
    'prompt.typed-entry': 'Type the card number on the pinpad',
  },
};

Object.assign(TEXT.pt, TERMINAL_TEXT.pt);
Object.assign(TEXT.en, TERMINAL_TEXT.en);
Object.assign(TEXT.pt, CNP_TEXT.pt);
Object.assign(TEXT.en, CNP_TEXT.en);

/** Every key of both languages (tests check they match). */
export const TEXT_KEYS = { pt: Object.keys(TEXT.pt), en: Object.keys(TEXT.en) };

/** Business time: the acquirer's time zone, whatever the browser's is. */
export const HOST_TIME_ZONE = 'America/Sao_Paulo';

const LANG_KEY = 'omnipos.lang';
let lang = sessionStorage.getItem(LANG_KEY) === 'en' ? 'en' : 'pt';

export function currentLang() {
  return lang;
}

/** The text for `key` in the current language; `fallback` (or the key) when there is none. */
export function t(key, fallback) {
  return TEXT[lang][key] ?? TEXT.pt[key] ?? fallback ?? key;
}

/** `text` with its `{name}` slots filled from `values` (a slot without a value is left out). */
export function fill(text, values = {}) {
  return text.replace(/\s?\{(\w+)\}/g, (m, name) =>
    values[name] === undefined || values[name] === null ? '' : m.replace(`{${name}}`, String(values[name])),
  );
}

/** A payment's API status (`confirmed`, …) in the page's language. */
export function statusText(status) {
  return t(`status.${status}`, t('status.unknown', status));
}

/** One of health's problems (`printer: paper out`, …) in the page's language. */
export function problemText(problem) {
  for (const [re, key, slots] of PROBLEMS) {
    const m = re.exec(problem);
    if (!m) continue;
    const values = {};
    slots.forEach((name, i) => (values[name] = m[i + 1]));
    if (values.pinpad) values.status = t(`pinpad.${values.pinpad}`, values.pinpad);
    if (values.alarmCode) values.alarm = t(`alarm.${values.alarmCode}`, `${t('alarm.unknown')} ${values.alarmCode}`);
    return fill(t(key), values);
  }
  return `${t('problem.unknown')} (${problem})`;
}

/** An alarm (health's or an `alarm` event) in the page's language, by its code; slots from its context. */
export function alarmText(alarm) {
  const known = TEXT[lang][`alarm.${alarm.code}`];
  if (!known) return `${t('alarm.unknown')} ${alarm.code}`;
  return fill(known, { ...(alarm.context ?? {}) });
}

/** A refusal (ApiFailure) in the page's language, by its code; the field at fault when there is one. */
export function errorText(e) {
  const known = TEXT[lang][`error.${e.code}`];
  const text = known ?? `${t('error.unknown')} (${e.code ?? '?'})`;
  return e.field ? `${text}: ${e.field}` : text;
}

const formats = new Map();
function format(options) {
  const key = `${lang}|${JSON.stringify(options)}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(lang === 'en' ? 'en-GB' : 'pt-BR', { timeZone: HOST_TIME_ZONE, ...options });
    formats.set(key, f);
  }
  return f;
}

/** The time of `iso` in business time (America/Sao_Paulo), HH:MM:SS. */
export function hostTime(iso) {
  return format({ hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).format(new Date(iso));
}

/** The date and time of `iso` in business time. */
export function hostDateTime(iso) {
  return format({
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));
}

/** The business day of `iso` (America/Sao_Paulo), YYYY-MM-DD. */
export function hostDay(iso) {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: HOST_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(new Date(iso));
  const get = (type) => parts.find((p) => p.type === type)?.value;
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** Fills every `[data-i18n]` element under `root` and the document's language. */
export function applyLang(root = document) {
  document.documentElement.lang = lang === 'en' ? 'en' : 'pt-BR';
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-alt]')) el.alt = t(el.dataset.i18nAlt);
}

/** Switches language (kept for the session) and repaints. */
export function setLang(next) {
  lang = next === 'en' ? 'en' : 'pt';
  sessionStorage.setItem(LANG_KEY, lang);
  applyLang();
}

/** Wires a language toggle button (PT ⇄ EN). */
export function langToggle(button, onChange = () => {}) {
  const paint = () => (button.textContent = lang === 'en' ? 'Português' : 'English');
  paint();
  button.addEventListener('click', () => {
    setLang(lang === 'en' ? 'pt' : 'en');
    paint();
    onChange();
  });
}
