// The redone change 1 of the house issue: a second acquirer kind with its own configuration keys, added
// to a copy of this tree the way docs/architecture.md "Adding an acquirer" says, then read through
// `acquirer.kind` (loadConfig, the production guard, the factory's backend and probe), and the files it
// took outside its own folder counted from the copy, not from a regular expression:
//   npx tsx scripts/house/second-acquirer.ts              the figure (the copy is removed)
//   npx tsx scripts/house/second-acquirer.ts --typecheck  also `tsc --noEmit` on the copy (slow)
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { privateCopy } from './private-copy.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The stub kind's configuration (its folder's config.ts): its own keys (an address, an approval limit) and its own secret file. */
const STUB_CONFIG = `import type { z } from 'zod';
import type { AcquirerConfigKind, KeyFields } from '../../config/acquirer-kind.js';

const stubKeys = ({ z, httpUrl, filePath }: KeyFields) =>
  z.strictObject({ hostUrl: httpUrl, approveBelow: z.number().int().positive(), tokenFile: filePath });
export type StubKeys = z.output<ReturnType<typeof stubKeys>>;

export const STUB_CONFIG = {
  keys: stubKeys,
  addresses: (k) => ({ hostUrl: k.hostUrl }),
  secrets: [{ key: 'tokenFile', secret: 'token' }] as const,
  sandboxIdentities: () => [],
  requiredOutsideSandbox: () => [],
  applySandboxDefaults: () => undefined,
  timeoutMs: () => 5000,
} satisfies AcquirerConfigKind<StubKeys, ReturnType<typeof stubKeys>>;
`;

/** The stub kind's backend (its folder's index.ts): approves below its limit, keeping its sales in memory. */
const STUB_BACKEND = `import type { AcquirerBackend, AcquirerProvisioning, HostOperationOf } from '../../engine/index.js';

const refused = (): Promise<never> => Promise.reject(new Error('the stub acquirer does not do this'));

/** The stub's backend, and the token it was given (read back by the house script). */
export type StubBackend = AcquirerBackend & { readonly token: string };

export function stubBackend(keys: { hostUrl: string; approveBelow: number }, token: string): StubBackend {
  return {
    kind: 'stub',
    sales: { authorize: refused },
    delivery: { confirm: refused, undo: refused, undoByOrderId: refused, queryByOrderId: refused },
    voids: { void: refused, confirmVoid: refused, undoVoid: refused, undoVoidByMerchantVoidId: refused },
    walletCancellations: { applied: refused },
    qrCodes: undefined,
    pix: undefined,
    initialization: { download: refused },
    probe: () => (keys.approveBelow > 0 ? Promise.resolve() : refused()),
    token,
  };
}

export function stubProvisioning(): AcquirerProvisioning {
  return {
    kind: 'stub',
    initialization: () => ({ source: { download: refused }, request: 'none', sent: {} }),
    registerStore: refused,
    store: refused,
    registerTerminal: refused,
    wallet: undefined,
    close: () => Promise.resolve(),
  };
}

export const stubOperationOf: HostOperationOf = () => 'other';
`;

/** The stub kind's factory entry (its folder's entry.ts), built from its own keys and secret. */
const STUB_ENTRY = `import type { Config } from '../../config/index.js';
import type { AcquirerKindEntry } from '../../factory/kind-entry.js';
import { stubBackend, stubOperationOf, stubProvisioning } from './index.js';

const stubKeysOf = (c: Config): { hostUrl: string; approveBelow: number } => {
  const a = c.values.acquirer;
  if (a.kind !== 'stub') throw new Error('not the stub');
  return a.stub;
};
const stubTokenOf = (c: Config): string => {
  const s = c.secrets.acquirer;
  if (s.kind !== 'stub') throw new Error('not the stub');
  return s.stub.token.reveal();
};

export const STUB_ENTRY: AcquirerKindEntry = {
  backend: (config) => ({
    backend: stubBackend(stubKeysOf(config), stubTokenOf(config)),
    close: () => Promise.resolve(),
  }),
  provisioning: () => stubProvisioning(),
  operationOf: stubOperationOf,
  probe: (config) => ({
    where: stubKeysOf(config).hostUrl,
    ask: () => Promise.resolve({ reachable: true, httpStatus: 200 }),
    close: () => Promise.resolve(),
  }),
};
`;

/** What the copy runs: the configuration read through acquirer.kind, the guard, the factory. */
const CHECK = `import { describeConfig, loadConfig } from './src/config/index.js';
import { acquirerBackend, acquirerProbe } from './src/factory/index.js';
const config = loadConfig({ path: process.argv[2], env: {} });
const wiring = { clock: { now: () => new Date() }, log: { child: () => ({}) } };
const open = acquirerBackend(config, wiring as never);
const probe = acquirerProbe(config, wiring as never);
let refused = '';
try { loadConfig({ path: process.argv[3], env: {} }); } catch (e) { refused = JSON.stringify((e as { context?: unknown }).context); }
const acquirerSecrets: any = config.secrets.acquirer;
const secret = acquirerSecrets.stub.token;
const described = JSON.stringify(describeConfig(config));
const backend: any = open.backend;
console.log(JSON.stringify({ kind: config.values.acquirer.kind, keys: (config.values.acquirer as Record<string, unknown>).stub, backend: backend.kind, probe: probe.where, refused, token: { backend: backend.token, file: secret.source.split('/').pop(), masked: described.includes('[secret from') && !described.includes(secret.reveal()) } }));
`;

export interface SecondAcquirer {
  /** Files of the copy added or changed outside src/acquirer/stub/, by hand or by `npm run generate`. */
  outside: string[];
  /** Of those, the ones edited by hand (the figure the house issue asks: the folder plus at most one line). */
  byHand: string[];
  /** Of those, the ones `npm run generate` rewrote. */
  generated: string[];
  /** What the copy read through acquirer.kind. */
  read: {
    kind: string;
    keys: unknown;
    backend: string;
    probe: string;
    refused: string;
    /** The stub's own secret: what its backend was given, the file it came from, masked when described. */
    token: { backend: string; file: string; masked: boolean };
  };
}

export function secondAcquirer(root = ROOT, typecheck = false): SecondAcquirer {
  const copy = privateCopy(root, 'omnipos-second-acquirer-');
  const dir = copy.dir;
  try {
    // The change, as docs/architecture.md "Adding an acquirer" lists it: the kind's folder, then `npm run generate`.
    mkdirSync(path.join(dir, 'src/acquirer/stub'));
    writeFileSync(path.join(dir, 'src/acquirer/stub/index.ts'), STUB_BACKEND);
    writeFileSync(path.join(dir, 'src/acquirer/stub/config.ts'), STUB_CONFIG);
    writeFileSync(path.join(dir, 'src/acquirer/stub/entry.ts'), STUB_ENTRY);
    const byHand = copy.changed().filter((f) => !f.startsWith('src/acquirer/stub/'));
    const wrote = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/generate/main.ts'], {
      cwd: dir,
      encoding: 'utf8',
    });
    const generated = [...wrote.matchAll(/^wrote (\S+)/gm)].map((m) => m[1]!);
    const outside = copy.changed().filter((f) => !f.startsWith('src/acquirer/stub/'));
    // A configuration of the stub kind, and a homologation one at an http address (refused by the guard).
    const shipped = JSON.parse(readFileSync(path.join(dir, 'config/omnipos.json'), 'utf8')) as Record<string, unknown>;
    const stub = {
      kind: 'stub',
      stub: { hostUrl: 'https://stub.example', approveBelow: 5000, tokenFile: 'stub-token' },
    };
    writeFileSync(path.join(dir, 'config/stub-token'), 'stub-token-not-for-production\n', { mode: 0o600 });
    const write = (name: string, c: unknown): string => {
      const f = path.join(dir, 'config', name);
      writeFileSync(f, JSON.stringify(c));
      return f;
    };
    const sandboxFile = write('stub.json', { ...shipped, acquirer: stub, sandbox: { embedded: false } });
    const prodFile = write('stub-prod.json', {
      ...shipped,
      environment: 'homologation',
      acquirer: { kind: 'stub', stub: { ...stub.stub, hostUrl: 'http://stub.example' } },
      sandbox: { embedded: false },
    });
    writeFileSync(path.join(dir, 'check.ts'), CHECK);
    const out = execFileSync(process.execPath, ['--import', 'tsx', 'check.ts', sandboxFile, prodFile], {
      cwd: dir,
      encoding: 'utf8',
    });
    if (typecheck) execFileSync('npx', ['tsc', '--noEmit', '-p', '.'], { cwd: dir, stdio: 'inherit' });
    return {
      outside: outside.sort(),
      byHand: byHand.sort(),
      generated: generated.sort(),
      read: JSON.parse(out.trim().split('\n').pop()!) as SecondAcquirer['read'],
    };
  } finally {
    copy.remove();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const r = secondAcquirer(ROOT, process.argv.includes('--typecheck'));
  console.log(`a second acquirer kind with its own keys: its folder src/acquirer/stub/ and \`npm run generate\`;`);
  console.log(`  edited by hand outside its folder: ${r.byHand.length}${r.byHand.map((f) => `\n    ${f}`).join('')}`);
  console.log(`  rewritten by npm run generate: ${r.generated.length}${r.generated.map((f) => `\n    ${f}`).join('')}`);
  console.log(`read through acquirer.kind: ${JSON.stringify(r.read)}`);
}
