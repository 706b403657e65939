// The receipt on screen, the receipt question and reprint, through the API. The routes named here
// are the receipts' (GET /v1/payments/{id}/receipt?format=text) and the cashier's answer; when the
// daemon does not have one yet (404), the page falls back to what GET /v1/payments/{id} tells.
import { api, money } from './api.js';
import { currentLang, hostDateTime, t } from './i18n.js';

/** A receipt built from the payment itself, when the daemon serves no receipt text. */
export function receiptFromView(v) {
  const lines = [
    `${t('amount')}: ${money(v.amount, currentLang())}`,
    `${t('method')}: ${t(`method.${v.method}`, v.method)}${v.installments > 1 ? ` ${v.installments}x` : ''}`,
  ];
  if (v.card?.maskedPan) lines.push(`${v.card.maskedPan}`);
  if (v.authorizationCode) lines.push(`AUT ${v.authorizationCode}`);
  if (v.nsu) lines.push(`NSU ${v.nsu}`);
  lines.push(`${t('receipt.order')} ${v.merchantOrderId}`, hostDateTime(v.updatedAt));
  for (const f of v.receipt?.fields ?? []) lines.push(`${f.label} ${f.content}`);
  return lines.join('\n');
}

/** The receipt's text: the daemon's (a Brazilian receipt, in Portuguese: `lang` says so), else one built from the payment in the page's language. */
export async function receiptText(view) {
  try {
    const text = await api(`/v1/payments/${view.id}/receipt?format=text&columns=32`, { accept: 'text/plain' });
    if (typeof text === 'string' && text.trim()) return { text, lang: 'pt-BR' };
  } catch {
    // not served by this daemon: fall back
  }
  return { text: receiptFromView(view), lang: '' };
}

/** Shows the receipt in `pre` (as text: nothing in it can run). */
export async function showReceipt(pre, view) {
  const { text, lang } = await receiptText(view);
  pre.textContent = text;
  if (lang) pre.lang = lang;
  else pre.removeAttribute('lang');
  pre.hidden = false;
}

/** The cashier's answer to "did the receipt come out?". */
export async function answerReceipt(id, printed) {
  return api(`/v1/payments/${id}/receipt/answer`, { method: 'POST', body: { printed } });
}

/** Prints the receipt again; false when the daemon cannot (the caller shows it on screen instead). */
export async function reprint(id) {
  try {
    await api(`/v1/payments/${id}/receipt/print`, { method: 'POST' });
    return true;
  } catch {
    return false;
  }
}
