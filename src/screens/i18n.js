// What the screens say, in Portuguese (the default) and English. One table; `data-i18n` names a key.

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
    'state.expiring': 'QR code expirado',
    'state.expired': 'QR code expirado',
    'state.failed': 'Falhou',
    'state.needs-refund': 'Desfeita — estorno pendente',
    'state.dead-letter': 'Falhou',
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
    'state.expiring': 'QR code expired',
    'state.expired': 'QR code expired',
    'state.failed': 'Failed',
    'state.needs-refund': 'Undone — refund pending',
    'state.dead-letter': 'Failed',
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

const LANG_KEY = 'omnipos.lang';
let lang = sessionStorage.getItem(LANG_KEY) === 'en' ? 'en' : 'pt';

export function currentLang() {
  return lang;
}

/** The text for `key` in the current language; `fallback` (or the key) when there is none. */
export function t(key, fallback) {
  return TEXT[lang][key] ?? TEXT.pt[key] ?? fallback ?? key;
}

/** Fills every `[data-i18n]` element under `root` and the document's language. */
export function applyLang(root = document) {
  document.documentElement.lang = lang === 'en' ? 'en' : 'pt-BR';
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
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
