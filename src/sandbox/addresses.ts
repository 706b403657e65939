import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { processAlive } from '../core/index.js';
import type { SandboxBase } from './routes.js';

/**
 * The client configuration key that names each base of the acquirer (config `acquirer.*`), in
 * the words of the configuration; the sandbox keeps this mapping as plain data so the daemon,
 * the CLI and the tests point each key at the listener that plays that base.
 */
export const CONFIG_KEY_OF_BASE = {
  authorization: 'authUrl',
  requests: 'requestUrl',
  queries: 'queryUrl',
  parameters: 'parametersUrl',
  registration: 'registrationUrl',
  ecommerceRequests: 'ecommerceUrl',
  ecommerceQueries: 'ecommerceQueryUrl',
  wallet: 'walletUrl',
} as const satisfies Record<SandboxBase, string>;

export type AddressKey = (typeof CONFIG_KEY_OF_BASE)[SandboxBase];

/** `authUrl` → `AUTH_URL` (the OMNIPOS_ACQUIRER__… variable's tail). */
function envName(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase();
}

/** Each configuration key with the address of its listener: `{ authUrl, requestUrl, … }`. */
export function sandboxSettings(running: { urls: Readonly<Record<SandboxBase, string>> }): Record<AddressKey, string> {
  return Object.fromEntries(
    (Object.entries(CONFIG_KEY_OF_BASE) as [SandboxBase, AddressKey][]).map(([b, k]) => [k, running.urls[b]]),
  ) as Record<AddressKey, string>;
}

/** The same as `OMNIPOS_ACQUIRER__*_URL` variables, for a CLI or a daemon started in a test. */
export function sandboxEnv(running: { urls: Readonly<Record<SandboxBase, string>> }): Record<string, string> {
  return Object.fromEntries(
    Object.entries(sandboxSettings(running)).map(([k, u]) => [`OMNIPOS_ACQUIRER__${envName(k)}`, u]),
  );
}

/** Where a listening sandbox says it listens: beside its database, `<stateDir>/sandbox/addresses.json`. */
export const IN_USE_FILE = 'addresses.json';

/** The addresses a sandbox host listens on, as it records them for the commands of its state directory. */
export interface SandboxInUse {
  /** The process that listens (a record whose process is gone is not read). */
  pid: number;
  /** The controls' address (`/sandbox/…`). */
  controls: string;
  urls: Readonly<Record<SandboxBase, string>>;
  ports: Readonly<Record<SandboxBase, number>>;
}

/**
 * Records where a sandbox that has just started listening listens (written whole: a temporary file
 * renamed), so `omnipos sandbox credentials` and `omnipos wallet pay` find it with its ports moved
 * (`sandbox.port: 0`). The returned function removes the record (only this process's).
 */
export function recordInUse(
  dir: string,
  running: { url: string; urls: Readonly<Record<SandboxBase, string>>; ports: Readonly<Record<SandboxBase, number>> },
): () => void {
  const file = path.join(dir, IN_USE_FILE);
  const record: SandboxInUse = { pid: process.pid, controls: running.url, urls: running.urls, ports: running.ports };
  mkdirSync(dir, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o644 });
  renameSync(tmp, file);
  return () => {
    if (readRecord(file)?.pid === process.pid) rmSync(file, { force: true });
  };
}

function readRecord(file: string): SandboxInUse | undefined {
  try {
    const r = JSON.parse(readFileSync(file, 'utf8')) as Partial<SandboxInUse>;
    if (typeof r.pid !== 'number' || typeof r.controls !== 'string' || !r.urls || !r.ports) return undefined;
    return r as SandboxInUse;
  } catch {
    return undefined;
  }
}

/** The addresses the sandbox of `dir` (`<stateDir>/sandbox`) listens on now; undefined when none runs. */
export function readInUse(dir: string): SandboxInUse | undefined {
  const r = readRecord(path.join(dir, IN_USE_FILE));
  return r && processAlive(r.pid) ? r : undefined;
}
