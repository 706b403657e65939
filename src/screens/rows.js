// The cells and buttons of the screens' tables of rows (the cashier's pre-authorizations and saved cards):
// text set as text, never as markup; a button's label in the page's language, kept by its i18n key.
import { t } from './i18n.js';

export function cell(text) {
  const td = document.createElement('td');
  td.textContent = text;
  return td;
}

export function button(key, cls, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = `small ${cls}`;
  b.dataset.i18n = key;
  b.textContent = t(key);
  b.addEventListener('click', onClick);
  return b;
}
