import { z } from 'zod';
import data from './sandbox-merchant.json' with { type: 'json' };

/** The merchant's schema, checked against the data by a unit test, not at every start (fast start: building and running
 * zod schemas over the tables cost ~13 ms of CPU in the daemon's start on Node 22): test/unit/tables/sandbox-merchant.test.ts. */
export const sandboxMerchantSchema = () =>
  z.object({
    merchant: z.object({
      subordinatedMerchantId: z.uuid(),
      /** 16-digit merchant number (QR 26.01). */
      merchantNumber: z.string().regex(/^\d{16}$/),
      mcc: z.string().regex(/^\d{4}$/),
      /** At most 25 characters (QR object 59). */
      name: z.string().min(1).max(25),
      /** At most 15 characters (QR object 60). */
      city: z.string().min(1).max(15),
      nationalId: z.string().regex(/^\d{11}$|^\d{14}$/),
      address: z.string(),
      state: z.string().length(2),
      postalCode: z.string().regex(/^\d{8}$/),
    }),
    terminal: z.object({
      /** 8-digit logical number. */
      terminalId: z.string().regex(/^\d{8}$/),
      ordinal: z.number().int().min(1).max(999),
    }),
  });

const { merchant: m, terminal: t } = data;

/** The sandbox host's registered test merchant and terminal: the schema's keys, in its order. */
export const SANDBOX_MERCHANT: Readonly<z.infer<ReturnType<typeof sandboxMerchantSchema>>> = Object.freeze({
  merchant: {
    subordinatedMerchantId: m.subordinatedMerchantId,
    merchantNumber: m.merchantNumber,
    mcc: m.mcc,
    name: m.name,
    city: m.city,
    nationalId: m.nationalId,
    address: m.address,
    state: m.state,
    postalCode: m.postalCode,
  },
  terminal: { terminalId: t.terminalId, ordinal: t.ordinal },
});
