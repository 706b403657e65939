import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config/index.js';
import { OmniposError } from '../core/index.js';
import { archivedReceipt, parseBusinessDate } from '../operations/index.js';
import { paymentReceipt, receiptText } from '../receipt/index.js';
import type { Command } from './context.js';

export const dayReceipt: Command = {
  path: ['day', 'receipt'],
  summary: "a receipt of an archived day, read back from the day's archive file (marked SEGUNDA VIA)",
  usage: `omnipos day receipt --date YYYY-MM-DD ORDER [--copy customer|merchant] [--config PATH]

Prints, as text, the receipt of payment ORDER (its MerchantOrderId, or its journal id) of a day
that retention moved out of the database into <stateDir>/archive/<year>/<date>.json.gz (its
checksum verified first), marked "SEGUNDA VIA (2a VIA)". Receipts of days still in the database:
omnipos receipt show.

Exit codes: 0 printed; 2 bad arguments, or the day is not archived, or the payment is not in it;
4 the payment had no receipt; 3 the archive file does not match its checksum (not read).

Example:
  omnipos day receipt --date 2026-03-02 260610010000003`,
  run(args, ctx) {
    const { values, positionals } = parseArgs({
      args,
      options: { config: { type: 'string' }, date: { type: 'string' }, copy: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
    if (values.date === undefined || positionals.length !== 1)
      throw new OmniposError('INVALID_ARGUMENT', 'usage: omnipos day receipt --date YYYY-MM-DD ORDER');
    if (values.copy !== undefined && values.copy !== 'customer' && values.copy !== 'merchant')
      throw new OmniposError('INVALID_ARGUMENT', '--copy: customer or merchant');
    const date = parseBusinessDate(values.date, '--date');
    const config = loadConfig({ ...(values.config ? { path: values.config } : {}), env: ctx.env });
    const ref = positionals[0] as string;
    const facts = archivedReceipt(
      path.join(config.values.stateDir, 'archive'),
      date,
      /^\d{1,12}$/.test(ref) && ref.length < 15 ? Number(ref) : ref,
    );
    const doc = paymentReceipt(facts, {
      environment: config.values.environment,
      copy: values.copy ?? 'customer',
      columns: 48,
      reprint: true,
    });
    ctx.out(receiptText(doc, 48));
    return Promise.resolve(0);
  },
};
