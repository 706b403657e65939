import { place } from './text-layout.js';
import type { ReceiptColumns, ReceiptDocument } from './types.js';

/** The document as a person reads it on paper: one string per line, aligned in `columns`. */
export function receiptLines(doc: ReceiptDocument, columns: ReceiptColumns): string[] {
  const out: string[] = [];
  for (const op of doc) {
    if (op.op === 'text') out.push(place(op.text, columns, op.align ?? 'left', op.width ?? 1));
    else if (op.op === 'feed') for (let i = 0; i < op.lines; i++) out.push('');
    else if (op.op === 'qr') out.push(place('[QR Code]', columns, 'center'));
  }
  return out;
}

/** `receiptLines` joined, for logs of tests, the CLI and plain-text screens. */
export function receiptText(doc: ReceiptDocument, columns: ReceiptColumns): string {
  return `${receiptLines(doc, columns).join('\n')}\n`;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * The document for a screen: a monospace block of `columns` characters, bold lines in `<b>`,
 * QR codes as the SVG `qrSvg` gives (the caller passes src/qr's renderer). Everything escaped.
 */
export function receiptHtml(doc: ReceiptDocument, columns: ReceiptColumns, qrSvg?: (data: string) => string): string {
  const rows: string[] = [];
  for (const op of doc) {
    if (op.op === 'text') {
      const line = escapeHtml(place(op.text, columns, op.align ?? 'left', op.width ?? 1));
      rows.push(op.bold ? `<b>${line}</b>` : line);
    } else if (op.op === 'feed') for (let i = 0; i < op.lines; i++) rows.push('');
    else if (op.op === 'qr')
      rows.push(
        qrSvg ? `<span class="qr">${qrSvg(op.data)}</span>` : escapeHtml(place('[QR Code]', columns, 'center')),
      );
  }
  return `<pre class="omnipos-receipt" style="font-family:monospace;width:${columns}ch">${rows.join('\n')}</pre>`;
}
