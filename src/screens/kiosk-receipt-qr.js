// The kiosk's digital copy: when the receipt is not printed (the printer cannot, or the customer
// chose "no receipt"), a QR code holding the customer's copy as text, which a phone reads offline
// (GET /v1/payments/{id}/receipt?format=qr, an SVG; the daemon is on loopback, so no link).
import { token } from './api.js';
import { currentLang } from './i18n.js';

const CAPTION = {
  pt: 'Comprovante digital: aponte a câmera do celular para o código.',
  en: 'Digital receipt: point your phone camera at the code.',
};

let url;

/** Shows payment `id`'s digital copy in `figure` (an img and a figcaption); hides it when the daemon has none. */
export async function showReceiptQr(figure, id) {
  const img = figure.querySelector('img');
  const caption = figure.querySelector('figcaption');
  try {
    const res = await fetch(`/v1/payments/${encodeURIComponent(id)}/receipt?format=qr`, {
      headers: { authorization: `Bearer ${token()}` },
      cache: 'no-store',
    });
    if (!res.ok) throw new Error(`receipt qr: ${res.status}`);
    if (url) URL.revokeObjectURL(url);
    url = URL.createObjectURL(await res.blob());
    img.src = url;
    caption.textContent = CAPTION[currentLang()] ?? CAPTION.pt;
    figure.dataset.paymentId = String(id);
    figure.hidden = false;
  } catch {
    hideReceiptQr(figure);
  }
}

/** Hides the digital copy and lets its image go. */
export function hideReceiptQr(figure) {
  figure.hidden = true;
  delete figure.dataset.paymentId;
  figure.querySelector('img').removeAttribute('src');
  if (url) URL.revokeObjectURL(url);
  url = undefined;
}
