import { z } from 'zod';
import data from './sandbox-keys.json' with { type: 'json' };

/** The keys' schema, checked against the data by a unit test, not at every start (fast start: building and running
 * zod schemas over the tables cost ~13 ms of CPU in the daemon's start on Node 22): test/unit/tables/sandbox-keys.test.ts. */
export const sandboxKeysSchema = () =>
  z.object({
    bdk: z.string().regex(/^[0-9A-F]{32}$/),
    ksi: z.string().regex(/^\d{5}$/),
    pinInitialKsn: z.string().regex(/^[0-9A-F]{20}$/),
    dataInitialKsn: z.string().regex(/^[0-9A-F]{20}$/),
  });

/** The sandbox's test BDK and initial KSNs (public test values; see the JSON's $comment): the schema's keys, in its order. */
export const SANDBOX_KEYS: Readonly<z.infer<ReturnType<typeof sandboxKeysSchema>>> = Object.freeze({
  bdk: data.bdk,
  ksi: data.ksi,
  pinInitialKsn: data.pinInitialKsn,
  dataInitialKsn: data.dataInitialKsn,
});
