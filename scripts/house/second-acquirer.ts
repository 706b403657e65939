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
import { insertAfter as edit, privateCopy } from './private-copy.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The stub kind's configuration: its own keys (an address, an approval limit) and its own secret file. */
const STUB_CONFIG = `import type { z } from 'zod';
import type { AcquirerConfigKind, KeyFields } from './acquirer-kind.js';

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

/** The stub kind's folder: a backend that approves below its limit, keeping its sales in memory. */
const STUB_BACKEND = `import type { AcquirerBackend, AcquirerProvisioning, HostOperationOf } from '../../engine/index.js';

const refused = (): Promise<never> => Promise.reject(new Error('the stub acquirer does not do this'));

export function stubBackend(keys: { hostUrl: string; approveBelow: number }, token: string): AcquirerBackend {
  const port = { confirm: refused, undo: refused, undoByOrderId: refused, queryByOrderId: refused };
  return {
    kind: 'stub',
    sales: { authorize: refused },
    delivery: port,
    voids: { ...port, create: refused },
    walletCancellations: { applied: refused },
    qrCodes: undefined,
    pix: undefined,
    initialization: { download: refused },
    probe: () => (keys.approveBelow > 0 ? Promise.resolve() : refused()),
    token,
  } as AcquirerBackend;
}

export function stubProvisioning(): AcquirerProvisioning {
  return { kind: 'stub', wallet: undefined, close: () => Promise.resolve() } as AcquirerProvisioning;
}

export const stubOperationOf: HostOperationOf = () => 'other';
`;

/** The stub's entry in the factory, inserted after omni's. */
const STUB_ENTRY = `  stub: {
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
  },
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
  /** Files of the copy's src/ added or changed outside src/acquirer/stub/. */
  outside: string[];
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
    // The change, as docs/architecture.md "Adding an acquirer" lists it.
    mkdirSync(path.join(dir, 'src/acquirer/stub'));
    writeFileSync(path.join(dir, 'src/acquirer/stub/index.ts'), STUB_BACKEND);
    writeFileSync(path.join(dir, 'src/config/acquirer-stub.ts'), STUB_CONFIG);
    edit(path.join(dir, 'src/config/acquirer-kinds.ts'), '  omni: OMNI_CONFIG,\n', '  stub: STUB_CONFIG,\n');
    edit(
      path.join(dir, 'src/config/acquirer-kinds.ts'),
      "import { OMNI_CONFIG } from './acquirer-omni.js';\n",
      "import { STUB_CONFIG } from './acquirer-stub.js';\n",
    );
    const factory = path.join(dir, 'src/factory/acquirer-backend.ts');
    edit(factory, '    operationOf: omniOperationOf,\n', '');
    const s = readFileSync(factory, 'utf8');
    const end = s.indexOf('\n};\n', s.indexOf('const KINDS'));
    writeFileSync(
      factory,
      `${s.slice(0, end + 1)}${STUB_ENTRY}${s.slice(end + 1)}`.replace(
        "import type { AcquirerKind, Config } from '../config/index.js';\n",
        "import type { AcquirerKind, Config } from '../config/index.js';\nimport { stubBackend, stubOperationOf, stubProvisioning } from '../acquirer/stub/index.js';\n" +
          "const stubKeysOf = (c: Config): { hostUrl: string; approveBelow: number } => {\n  const a = c.values.acquirer;\n  if (a.kind !== 'stub') throw new Error('not the stub');\n  return a.stub;\n};\n" +
          "const stubTokenOf = (c: Config): string => {\n  const s = c.secrets.acquirer;\n  if (s.kind !== 'stub') throw new Error('not the stub');\n  return s.stub.token.reveal();\n};\n",
      ),
    );
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
    return { outside: outside.sort(), read: JSON.parse(out.trim().split('\n').pop()!) as SecondAcquirer['read'] };
  } finally {
    copy.remove();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const r = secondAcquirer(ROOT, process.argv.includes('--typecheck'));
  console.log(`a second acquirer kind with its own keys took ${r.outside.length} files outside src/acquirer/stub/:`);
  for (const f of r.outside) console.log(`  ${f}`);
  console.log(`read through acquirer.kind: ${JSON.stringify(r.read)}`);
}
