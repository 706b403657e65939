import { z } from 'zod';
import data from './sandbox-merchant.json' with { type: 'json' };
import { ONCE } from './parse-once.js';

const SandboxMerchant = z.object({
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

/** The sandbox host's registered test merchant and terminal. */
export const SANDBOX_MERCHANT: Readonly<z.infer<typeof SandboxMerchant>> = Object.freeze(
  SandboxMerchant.parse(data, ONCE),
);
