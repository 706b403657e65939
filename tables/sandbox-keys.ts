import { z } from 'zod';
import data from './sandbox-keys.json' with { type: 'json' };
import { ONCE } from './parse-once.js';

const Keys = z.object({
  bdk: z.string().regex(/^[0-9A-F]{32}$/),
  ksi: z.string().regex(/^\d{5}$/),
  pinInitialKsn: z.string().regex(/^[0-9A-F]{20}$/),
  dataInitialKsn: z.string().regex(/^[0-9A-F]{20}$/),
});

/** The sandbox's test BDK and initial KSNs (public test values; see the JSON's $comment). */
export const SANDBOX_KEYS: Readonly<z.infer<typeof Keys>> = Object.freeze(Keys.parse(data, ONCE));
