import { z } from 'zod';
import { OmniposError } from '../../core/index.js';

const Expect = z.strictObject({
  /** The API status the payment or void must read (approved, confirmed, declined, undone, cancelled, refused…). */
  status: z.string().min(1).optional(),
  /** The host's ReturnCode. */
  returnCode: z.string().min(1).optional(),
});

const Sale = z.strictObject({
  amount: z.number().int().positive().max(99_999_999),
  method: z.enum(['credit', 'debit', 'voucher']),
  installments: z.number().int().min(1).max(99).optional(),
  interest: z.enum(['ByMerchant', 'ByIssuer']).optional(),
  confirmation: z.enum(['auto', 'ecr']).optional(),
});

const Step = z.union([
  z.strictObject({ sale: Sale, expect: Expect.optional() }),
  z.strictObject({ confirm: z.strictObject({}), expect: Expect.optional() }),
  z.strictObject({ undo: z.strictObject({}), expect: Expect.optional() }),
  z.strictObject({ cancel: z.strictObject({}), expect: Expect.optional() }),
  /** A card-present void of the test's sale (the card is read again); `amount` for a partial void. */
  z.strictObject({
    void: z.strictObject({ amount: z.number().int().positive().optional() }),
    expect: Expect.optional(),
  }),
]);

/** A homologation script: the acquirer's test cases, each a sale and what follows it, with expected outcomes. */
export const HomologationScript = z.strictObject({
  name: z.string().min(1).max(200),
  tests: z
    .array(
      z.strictObject({
        /** The acquirer's test case id, e.g. CT01: the evidence directory's name. */
        id: z.string().regex(/^[A-Za-z0-9._-]{1,40}$/, 'letters, digits, . _ - (1 to 40)'),
        title: z.string().max(200).optional(),
        steps: z.array(Step).min(1).max(20),
      }),
    )
    .min(1)
    .max(500)
    .refine((t) => new Set(t.map((x) => x.id)).size === t.length, 'test ids must be unique'),
});
export type HomologationScript = z.infer<typeof HomologationScript>;
export type HomologationStep = z.infer<typeof Step>;

/** Parses a script's JSON text; OPERATIONS_SCRIPT_INVALID naming the path at fault otherwise. */
export function parseScript(text: string, source = 'script'): HomologationScript {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new OmniposError('OPERATIONS_SCRIPT_INVALID', `${source}: not JSON: ${(e as Error).message}`, { source });
  }
  const r = HomologationScript.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0];
    const where = issue?.path.join('.') || '(root)';
    throw new OmniposError('OPERATIONS_SCRIPT_INVALID', `${source}: ${where}: ${issue?.message ?? 'invalid'}`, {
      source,
      path: where,
    });
  }
  return r.data;
}
