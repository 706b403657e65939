import { parseArgs } from 'node:util';
import { loadConfig } from '../config/index.js';
import { OmniposError } from '../core/index.js';
import { isValidDocument } from '../crypto/index.js';
import type { Command } from './context.js';
import { EXIT_CODES_TEXT, parseCents, runQrPayment } from './qr-sale.js';

export const pixSale: Command = {
  path: ['pix', 'sale'],
  summary: 'sell with Pix: show the code, wait until it is paid',
  usage: `omnipos pix sale --amount CENTS --payer-name NAME --payer-document CPF|CNPJ [--config PATH]

Starts a Pix sale (the e-commerce API's Pix, with the payer's name and document as it requires)
on the running daemon, or on one started in this process on the configured default when no
daemon answers. Shows the code as text blocks and prints its copy-and-paste string, then waits
(a progress line) until it is paid and the receipt is out. Ctrl-C cancels the charge (a payment
that still arrives is refunded by the terminal, with an alarm).

${EXIT_CODES_TEXT}

Example:
  omnipos pix sale --amount 1800 --payer-name 'Maria da Silva' --payer-document 529.982.247-25`,
  async run(args, ctx) {
    const { values } = parseArgs({
      args,
      options: {
        amount: { type: 'string' },
        'payer-name': { type: 'string' },
        'payer-document': { type: 'string' },
        config: { type: 'string' },
      },
      strict: true,
    });
    const amount = parseCents(values.amount, '--amount');
    const name = values['payer-name']?.trim();
    const document = values['payer-document']?.replace(/[.\-/\s]/g, '');
    if (!name || name.length < 2)
      throw new OmniposError('INVALID_ARGUMENT', "--payer-name: the payer's name is required (at least 2 letters)");
    if (!document || !isValidDocument(document))
      throw new OmniposError(
        'INVALID_ARGUMENT',
        '--payer-document: expected a valid CPF (11 digits) or CNPJ (14 digits)',
        { found: values['payer-document'] ? 'invalid' : 'missing' },
      );
    const config = loadConfig({ ...(values.config ? { path: values.config } : {}), env: ctx.env });
    return runQrPayment(
      ctx,
      config,
      { amount, method: 'pix', payer: { name, document }, confirmation: 'auto' },
      'Pix sale',
    );
  },
};
