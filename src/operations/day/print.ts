import { formatBRL, HOST_TIME_ZONE, localTime } from '../../core/index.js';
import {
  labelValue,
  TEST_ENVIRONMENT_BANNER,
  wrap,
  type ReceiptColumns,
  type ReceiptDocument,
  type ReceiptOp,
} from '../../receipt/index.js';
import type { DayGroup, DayReport } from './report.js';

const METHOD: Readonly<Record<string, string>> = {
  credit: 'CREDITO',
  debit: 'DEBITO',
  voucher: 'VOUCHER',
  'wallet-qr': 'QR CARTEIRA',
  pix: 'PIX',
};

const OUTCOME: Readonly<Record<string, string>> = {
  confirmed: 'CONFIRMADAS',
  approved: 'AGUARDANDO DECISAO',
  'needs-refund': 'A DEVOLVER',
  'dead-letter': 'NAO ENTREGUES',
  declined: 'NEGADAS',
  undone: 'DESFEITAS',
  refunded: 'DEVOLVIDAS (PIX)',
  cancelled: 'CANCELADAS',
  refused: 'CARTAO RECUSADO',
  failed: 'FALHAS',
  'in-progress': 'EM ANDAMENTO',
  voided: 'ESTORNOS',
  'void-failed': 'ESTORNOS NAO FEITOS',
};

function hostStamp(iso: string): string {
  const t = localTime(new Date(iso), HOST_TIME_ZONE);
  const s = Math.floor(t.decisecondsOfDay / 10);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${two(t.day)}/${two(t.month)}/${t.year} ${two(Math.floor(s / 3600))}:${two(Math.floor(s / 60) % 60)}`;
}

/**
 * The day's report as a printer-neutral document (the same ops as a receipt) laid out in
 * `columns` (32, 42 or 48): totals, then by method, brand and product, then counts by outcome.
 * Outside production it carries the test-environment banner like every receipt.
 */
export function dayReportDocument(
  report: DayReport,
  o: { columns: ReceiptColumns; environment: string; terminalId?: string },
): ReceiptDocument {
  const w = o.columns;
  const ops: ReceiptOp[] = [];
  const text = (t: string, extra: Partial<Extract<ReceiptOp, { op: 'text' }>> = {}): void => {
    ops.push({ op: 'text', text: t, ...extra });
  };
  const lv = (label: string, value: string): void => {
    for (const l of labelValue(label, value, w)) text(l);
  };
  const rule = (): void => text('-'.repeat(w));
  const groupLines = (title: string, groups: Record<string, DayGroup>, name: (k: string) => string): void => {
    text(title, { bold: true });
    const keys = Object.keys(groups);
    if (keys.length === 0) text('  (nenhuma)');
    for (const k of keys) {
      const g = groups[k] as DayGroup;
      lv(`  ${name(k)} (${g.sales})`, formatBRL(g.salesAmount));
      if (g.voids > 0) lv(`    estornos (${g.voids})`, `-${formatBRL(g.voidsAmount)}`);
    }
  };
  text(report.closedAt ? 'FECHAMENTO DO DIA' : 'RELATORIO DO DIA', { align: 'center', bold: true });
  if (o.environment !== 'production')
    for (const l of wrap(TEST_ENVIRONMENT_BANNER, w)) text(l, { align: 'center', bold: true });
  lv('DIA', report.date);
  if (o.terminalId) lv('TERMINAL', o.terminalId);
  lv('EMITIDO', hostStamp(report.generatedAt));
  if (report.closedAt) lv('FECHADO', hostStamp(report.closedAt));
  rule();
  const charged = Object.values(report.totals.byMethod).reduce((a, g) => a + g.sales, 0);
  lv(`VENDAS (${charged})`, formatBRL(report.totals.salesAmount));
  lv(`ESTORNOS (${report.counts.byOutcome.voided ?? 0})`, `-${formatBRL(report.totals.voidsAmount)}`);
  lv('LIQUIDO', formatBRL(report.totals.net));
  rule();
  groupLines('POR MEIO', report.totals.byMethod, (k) => METHOD[k] ?? k.toUpperCase());
  groupLines('POR BANDEIRA', report.totals.byBrand, (k) => (/^\d+$/.test(k) ? `BANDEIRA ${k}` : k.toUpperCase()));
  groupLines('POR PRODUTO', report.totals.byProduct, (k) => (/^\d+$/.test(k) ? `PRODUTO ${k}` : k.toUpperCase()));
  // The card-not-present sales (counted above with the card-present ones) by the host they went to.
  if (report.totals.byBackend) groupLines('SEM CARTAO PRESENTE', report.totals.byBackend, (k) => k.toUpperCase());
  rule();
  text('SITUACAO', { bold: true });
  if (Object.keys(report.counts.byOutcome).length === 0) text('  (nenhuma operacao)');
  for (const [k, n] of Object.entries(report.counts.byOutcome)) lv(`  ${OUTCOME[k] ?? k}`, String(n));
  if (report.totals.undoneAmount > 0) lv('DESFEITO', formatBRL(report.totals.undoneAmount));
  if (report.totals.needsRefundAmount > 0) lv('A DEVOLVER', formatBRL(report.totals.needsRefundAmount));
  if (report.counts.inProgress > 0)
    for (const l of wrap(`${report.counts.inProgress} operacao(oes) ainda em andamento`, w)) text(l);
  for (const words of awaitingWords(report)) for (const l of wrap(words, w)) text(l);
  ops.push({ op: 'feed', lines: 3 }, { op: 'cut' });
  return ops;
}

/**
 * The lines awaiting the host's close (src/engine/awaiting-host-close.ts), each said for what it
 * is: a wallet QR sale's code that ended unpaid, or a wallet QR void's cancellation code that ended
 * not applied.
 */
function awaitingWords(report: DayReport): string[] {
  const awaiting = report.lines.filter((l) => l.awaitingHostClose);
  const voids = awaiting.filter((l) => l.kind === 'void').length;
  const codes = awaiting.length - voids;
  const end = 'aguardando o fechamento do adquirente';
  return [
    ...(codes > 0 ? [`${codes} QR nao pago(s) ${end}`] : []),
    ...(voids > 0 ? [`${voids} estorno(s) QR nao aplicado(s) ${end}`] : []),
  ];
}
