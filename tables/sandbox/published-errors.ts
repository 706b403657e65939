import { z } from 'zod';
import data from './published-errors.json' with { type: 'json' };
import { ONCE } from '../parse-once.js';

const ApiCode = z.strictObject({
  code: z.number().int().min(0),
  message: z.string().min(1),
  line: z.number().int().positive(),
});
const WalletCode = z.strictObject({
  status: z.number().int().min(400).max(599),
  code: z.string().regex(/^\d{3}\.\d{3}$/),
  description: z.string().min(1),
  line: z.number().int().positive(),
});

/** The e-commerce API error table (`[{Code, Message}]`), as the manual publishes it, with each row's line. */
export const API_ERRORS: readonly z.infer<typeof ApiCode>[] = Object.freeze(
  z.array(ApiCode).parse(data.api.codes, ONCE),
);
export const API_ERRORS_PAGE = data.api.page;

/** The QR code manual v4 payment error table (`{code, description}` with its HTTP status). */
export const WALLET_ERRORS: readonly z.infer<typeof WalletCode>[] = Object.freeze(
  z.array(WalletCode).parse(data.wallet.codes, ONCE),
);
export const WALLET_ERRORS_PAGE = data.wallet.page;
