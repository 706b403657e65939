import { z } from 'zod';
import data from './published-errors.json' with { type: 'json' };

/** The tables' schemas, checked against the data by a unit test, not at every start (fast start: building and running
 * zod schemas over the tables cost ~13 ms of CPU in the daemon's start on Node 22): test/unit/tables/sandbox/published-errors.test.ts. */
export const apiErrorRows = () =>
  z.array(
    z.strictObject({
      code: z.number().int().min(0),
      message: z.string().min(1),
      line: z.number().int().positive(),
    }),
  );
export const walletErrorRows = () =>
  z.array(
    z.strictObject({
      status: z.number().int().min(400).max(599),
      code: z.string().regex(/^\d{3}\.\d{3}$/),
      description: z.string().min(1),
      line: z.number().int().positive(),
    }),
  );

/** The e-commerce API error table (`[{Code, Message}]`), as the manual publishes it, with each row's line. */
export const API_ERRORS: Readonly<z.infer<ReturnType<typeof apiErrorRows>>> = Object.freeze(data.api.codes);

/** The QR code manual v4 payment error table (`{code, description}` with its HTTP status). */
export const WALLET_ERRORS: Readonly<z.infer<ReturnType<typeof walletErrorRows>>> = Object.freeze(data.wallet.codes);
