import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { TEST_STORE, WS15_PATH } from '../../src/sandbox/index.js';
import type { TestDaemon } from './documented-api.js';

/** The keys a customer types on the virtual pinpad, one per GCD prompt (number, month, year, security code). */
export interface TypedKeys {
  number: string;
  month: string;
  year: string;
  code: string;
}

/** A card-not-present backend on the embedded default, with the cards and amounts its host model documents. */
export interface CnpBackend {
  name: 'ecommerce' | 'webservice15';
  env(dir: string): Record<string, string>;
  /** A card the host approves (at `approvedAmount`). */
  approved: TypedKeys;
  approvedAmount: number;
  /** An amount the host declines for a saved card (ws15: the amount rule), or a card it declines (ecommerce). */
  declined: { card: TypedKeys; amount: number };
  /** What the body names of the card (the webservice 1.5 has no BIN lookup: the brand). */
  body: Record<string, unknown>;
  /** The masked number the saved card shows. */
  masked: RegExp;
}

/**
 * The webservice 1.5 host's address for a daemon on the embedded sandbox: port 0, so its listener takes
 * any free port (src/main/sandbox-host.ts) and two test files never collide; the daemon reads the real
 * one back (`webservice15Url`).
 */
export const WS15_ANY_PORT_URL = `http://127.0.0.1:0${WS15_PATH}`;

/**
 * A daemon's environment on the webservice 1.5 at `url` (default: its own listener in the embedded sandbox):
 * the manual's test store and key (ws15:1528), the key written to a file in `dir`.
 */
export function ws15Env(dir: string, url = WS15_ANY_PORT_URL): Record<string, string> {
  const keyFile = path.join(dir, 'ws15.key');
  writeFileSync(keyFile, `${TEST_STORE.key}\n`, { mode: 0o600 });
  return {
    OMNIPOS_CARD_NOT_PRESENT__KIND: 'webservice15',
    OMNIPOS_CARD_NOT_PRESENT__URL: url,
    OMNIPOS_CARD_NOT_PRESENT__AFFILIATION: TEST_STORE.affiliation,
    OMNIPOS_CARD_NOT_PRESENT__KEY_FILE: keyFile,
  };
}

export const CNP_BACKENDS: readonly CnpBackend[] = [
  {
    // The last digit chooses (ecom:388-408): 1 authorized, 2 denied (05); the brand from the BIN lookup.
    name: 'ecommerce',
    env: () => ({ OMNIPOS_CARD_NOT_PRESENT__KIND: 'ecommerce' }),
    approved: { number: '4111111111111111', month: '07', year: '2031', code: '918' },
    approvedAmount: 1990,
    declined: { card: { number: '4111111111111152', month: '08', year: '2032', code: '527' }, amount: 1990 },
    body: {},
    masked: /^411111\*+1111$/,
  },
  {
    // The manual's test store (ws15:1528) and test card (ws15:1512); an amount not ending in 00 is declined (1530).
    name: 'webservice15',
    env: (dir) => ws15Env(dir),
    approved: { number: '4012001038443335', month: '05', year: '2031', code: '123' },
    approvedAmount: 1000,
    declined: { card: { number: '4012001038443335', month: '05', year: '2031', code: '123' }, amount: 1001 },
    body: { brand: 'Visa' },
    masked: /^401200\*+3335$/,
  },
];

/** Queues the customer's keys on the virtual pinpad, one entry per GCD prompt. */
export function typeCard(t: TestDaemon, card: TypedKeys | string[]): void {
  const keys = Array.isArray(card) ? card : [card.number, card.month, card.year, card.code];
  for (const k of keys) t.pinpad.type(k);
}

/**
 * A card-not-present sale read by `read` until it leaves `sending` (its host's answer, or the undo race
 * it went to): the last reading. Throws when it never does.
 */
export async function settledSale<B extends { readonly state?: unknown }>(
  id: unknown,
  read: () => Promise<B>,
): Promise<B> {
  for (let i = 0; i < 800; i++) {
    const body = await read();
    if (body.state !== 'sending') return body;
    await new Promise((res) => setTimeout(res, 25));
  }
  throw new Error(`sale ${String(id)} never left sending`);
}

/** What must never be at rest or in an answer: the number, the expiry as sent, the code as a JSON value. */
export const secretsOf = (c: TypedKeys): string[] => [c.number, `${c.month}/${c.year}`, `"${c.code}"`];

/** The env of a CLI command run against the test daemon. */
export function cliContext(t: TestDaemon, out: string[], err: string[]) {
  return {
    out: (s: string) => void out.push(s),
    err: (s: string) => void err.push(s),
    env: {
      OMNIPOS_CONFIG: '',
      OMNIPOS_STATE_DIR: t.stateDir,
      OMNIPOS_API__PORT: new URL(t.apiUrl).port,
    },
  };
}

/** Every answer (`METHOD path status`) the document declares for the paths under `prefix`. */
export function declaredUnder(
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>,
  prefix: string,
): string[] {
  return Object.entries(paths)
    .filter(([p]) => p.startsWith(prefix))
    .flatMap(([p, ops]) =>
      Object.entries(ops).flatMap(([m, op]) => Object.keys(op.responses).map((s) => `${m.toUpperCase()} ${p} ${s}`)),
    );
}
