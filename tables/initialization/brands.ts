import { z } from 'zod';
import data from './brands.json' with { type: 'json' };
import { ONCE } from '../parse-once.js';

const Brand = z.strictObject({ brandId: z.string().regex(/^\d+$/), name: z.string().min(1), voucher: z.boolean() });
export type Brand = z.infer<typeof Brand>;

/** Card brands by `BrandId`, validated at load (see brands.json). */
export const BRANDS: ReadonlyMap<string, Brand> = new Map(
  z
    .array(Brand)
    .parse(data.brands, ONCE)
    .map((b) => [b.brandId, Object.freeze(b)]),
);
