/**
 * The chaos run's card-not-present backends (`--cnp`): `ecommerce` (the JSON e-commerce API, on the
 * sandbox host the run already holds: its ledger's `cards`), `webservice15` (the XML webservice 1.5's
 * host model on a listener of its own in this process, its clock the sandbox host's, its ledger read
 * from its side: `Ws15Host.ledger`), `both` (the first terminal on the e-commerce API, the second on the
 * webservice 1.5), or `off`. Each terminal's configuration comes from here (`cardNotPresent`).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { listenWs15, TEST_STORE, type RunningWs15, type Ws15LedgerRow } from '../../src/sandbox/index.js';
import { openSandboxDatabase, type Db } from '../../src/sandbox/db.js';
import type { FaultSpec } from '../../src/sandbox/context.js';
import type { CnpBackend } from './cnp-draw.js';

export const CNP_OPTIONS = ['off', 'ecommerce', 'webservice15', 'both'] as const;
export type CnpOption = (typeof CNP_OPTIONS)[number];

export interface CnpBackends {
  /** The backend of the terminal at `index`, or none. */
  backendOf(index: number): CnpBackend | undefined;
  /** The terminal's `OMNIPOS_CARD_NOT_PRESENT__*` variables. */
  env(index: number): Record<string, string>;
  /** The webservice 1.5 host's transactions (none when it does not run). */
  ws15Ledger(): Ws15LedgerRow[];
  /** A transport fault on the webservice 1.5's next message of `route` (src/sandbox/webservice15/faults.ts). */
  ws15Fault(route: string, spec: FaultSpec): void;
  close(): Promise<void>;
}

export function isCnpOption(v: string): v is CnpOption {
  return CNP_OPTIONS.some((o) => o === v);
}

export async function cnpBackends(
  option: CnpOption,
  o: { dir: string; merchants: number; now: () => Date; timeoutMs: number },
): Promise<CnpBackends> {
  if (option === 'both' && o.merchants !== 2)
    throw new Error('--cnp both: one terminal per backend needs --merchants 2');
  const backendOf = (i: number): CnpBackend | undefined =>
    option === 'off' ? undefined : option === 'both' ? (i === 0 ? 'ecommerce' : 'webservice15') : option;
  let ws15: RunningWs15 | undefined;
  let db: Db | undefined;
  const keyFile = path.join(o.dir, 'ws15.key');
  if (option === 'webservice15' || option === 'both') {
    // Its transactions, tokens and faults in a file of the run's own, as the embedded sandbox keeps them.
    db = openSandboxDatabase(path.join(o.dir, 'ws15.db'));
    ws15 = await listenWs15({ now: o.now, db });
    // The manual's test store and key (ws15:1528), read at start as a secret (0600).
    writeFileSync(keyFile, `${TEST_STORE.key}\n`, { mode: 0o600 });
  }
  return {
    backendOf,
    env: (i): Record<string, string> => {
      const b = backendOf(i);
      if (b === 'ecommerce') return { OMNIPOS_CARD_NOT_PRESENT__KIND: 'ecommerce' };
      if (b !== 'webservice15' || !ws15) return {};
      return {
        OMNIPOS_CARD_NOT_PRESENT__KIND: 'webservice15',
        OMNIPOS_CARD_NOT_PRESENT__URL: ws15.url,
        OMNIPOS_CARD_NOT_PRESENT__AFFILIATION: TEST_STORE.affiliation,
        OMNIPOS_CARD_NOT_PRESENT__KEY_FILE: keyFile,
        OMNIPOS_CARD_NOT_PRESENT__TIMEOUT_MS: String(o.timeoutMs),
      };
    },
    ws15Ledger: () => ws15?.host.ledger() ?? [],
    ws15Fault: (route, spec) => ws15?.faults?.set(route, spec),
    close: async () => {
      await ws15?.close();
      db?.close();
    },
  };
}
