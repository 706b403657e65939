import { z } from 'zod';
import {
  CARD_NOT_PRESENT_KINDS,
  CNP_CONFIG,
  type CnpInput,
  type CnpKind,
  type CnpValues,
} from './card-not-present-kinds.js';
import { filePath, httpUrl, port } from './fields.js';

/**
 * Sales without the card present (phone orders, pre-authorizations): one backend, chosen by `kind`,
 * each with its own keys only, beside `kind` (card-not-present-kinds.ts; docs/card-not-present.md).
 * Absent: no card-not-present sales.
 */
export function cardNotPresentSchema(): z.ZodType<CnpValues, CnpInput> {
  const fields = { z, httpUrl, filePath, port };
  // Built by a map, a member's type is any kind's: the kinds' own types (CnpValues) say what each holds.
  const member = (k: CnpKind): z.ZodObject =>
    z.strictObject({ kind: z.literal(k), ...CNP_CONFIG[k].keys(fields).shape });
  const [first, ...rest] = CARD_NOT_PRESENT_KINDS.map(member);
  const union: z.ZodType = z.discriminatedUnion('kind', [first!, ...rest]);
  return union as z.ZodType<CnpValues, CnpInput>;
}
