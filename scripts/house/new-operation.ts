// The redone change 2 of the house issue: a new API operation, `GET /v1/version`, added to a copy of this
// tree the way docs/architecture.md "Adding an API operation" says (its declaration beside its handler, its
// test), regenerated with `npm run generate`, then served by the copy's router and read in its document;
// the files it took counted from the copy (`git status`), the generated ones apart:
//   npx tsx scripts/house/new-operation.ts                    the figure (the copy is removed)
//   npx tsx scripts/house/new-operation.ts --typecheck --test  also `tsc --noEmit` and the tests that hold
//                                                             the API, run in the copy (slow: minutes)
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { insertAfter, privateCopy } from './private-copy.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The declaration, appended to the health area's list (src/api/health.ts), after `getHealth`. */
const DECLARATION = `  op({
    method: 'GET',
    path: '/v1/version',
    operationId: 'getVersion',
    tag: 'health',
    errors: [],
    summary: 'The version of omnipos this daemon runs',
    responses: {
      '200': json(
        { type: 'object', properties: { version: str }, required: ['version'], additionalProperties: false },
        'Its version (package.json).',
      ),
      '401': UNAUTHORIZED,
    },
    handle: ({ res }) => sendJson(res, 200, { version: daemonVersion() }),
  }),
`;

/** Its handler, in the same file. */
const HANDLER = `
let version: string | undefined;

/** \`GET /v1/version\`: the package's version, read once. */
function daemonVersion(): string {
  version ??= (JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  return version;
}
`;

/** Its test: every answer the document declares for it, produced on a real daemon and held to the document. */
const TEST = `import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentedApi } from '../../helpers/documented-api.js';

const api = documentedApi();
beforeAll(() => api.start());
afterAll(() => api.stop());

describe('GET /v1/version', () => {
  it("answers the package's version behind the token", async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(await api.hit('/v1/version', '/v1/version')).toMatchObject({ status: 200, body: { version: pkg.version } });
    expect((await api.hit('/v1/version', '/v1/version', { token: null })).status).toBe(401);
    expect((await api.hit('/v1/version', '/v1/version', { headers: { host: 'evil.example' } })).status).toBe(421);
    expect(api.unproduced('/v1/version')).toEqual([]);
  });
});
`;

/** What the copy runs: its router (buildApp on an ephemeral port) and its document, with the new operation. */
const CHECK = `import { buildApp, listenApi } from './src/api/index.js';
import { OPERATIONS } from './src/api/operations.js';
import { openApiDocument } from './src/api/openapi.js';
const quiet = { error() {}, warn() {}, info() {}, debug() {}, child() { return quiet; } };
const api = await listenApi(buildApp({ token: 't', log: quiet } as never), '127.0.0.1', 0);
const get = async (token?: string) => {
  const r = await fetch(\`\${api.url}/v1/version\`, { headers: token ? { authorization: \`Bearer \${token}\` } : {} });
  return { status: r.status, body: (await r.json()) as unknown };
};
const served = await get('t');
const refused = await get();
await api.close();
const doc = openApiDocument(OPERATIONS) as { paths: Record<string, Record<string, { operationId: string }>> };
console.log(JSON.stringify({ served, refused: refused.status, operationId: doc.paths['/v1/version']?.get?.operationId }));
`;

export interface NewOperation {
  /** Files of the copy's tree written by hand (the declaration and its handler, the test). */
  written: string[];
  /** Files `npm run generate` rewrote for it (the OpenAPI document, the guide's error table). */
  generated: string[];
  /** What the copy's router and document gave. */
  read: { served: { status: number; body: unknown }; refused: number; operationId: string };
}

const tsx = (dir: string, args: string[]): string =>
  execFileSync(process.execPath, ['--import', 'tsx', ...args], { cwd: dir, encoding: 'utf8' });

export function newOperation(root = ROOT, o: { typecheck?: boolean; test?: boolean } = {}): NewOperation {
  const copy = privateCopy(root, 'omnipos-new-operation-');
  const dir = copy.dir;
  try {
    // The change, as docs/architecture.md "Adding an API operation" says.
    const health = path.join(dir, 'src/api/health.ts');
    insertAfter(health, '    handle: ({ res }, deps) => sendJson(res, 200, healthView(deps)),\n  }),\n', DECLARATION);
    insertAfter(
      health,
      "import type { Outbox } from '../store/index.js';\n",
      "import { readFileSync } from 'node:fs';\nimport path from 'node:path';\nimport { PACKAGE_ROOT } from '../config/index.js';\n",
    );
    const text = readFileSync(health, 'utf8').replace(
      '{ json, ref, UNAUTHORIZED }',
      '{ json, ref, str, UNAUTHORIZED }',
    );
    writeFileSync(health, `${text}${HANDLER}`);
    mkdirSync(path.join(dir, 'test/integration/api'), { recursive: true });
    writeFileSync(path.join(dir, 'test/integration/api/version.test.ts'), TEST);
    const written = copy.changed();
    // As a person would before committing: formatted, and (with --typecheck) linted.
    execFileSync('npx', ['prettier', '--write', ...written], { cwd: dir, stdio: 'ignore' });
    tsx(dir, ['scripts/generate/main.ts']);
    const generated = copy.changed().filter((f) => !written.includes(f));
    writeFileSync(path.join(dir, 'check.ts'), CHECK);
    const out = tsx(dir, ['check.ts']);
    if (o.typecheck) {
      execFileSync('npx', ['tsc', '--noEmit', '-p', '.'], { cwd: dir, stdio: 'inherit' });
      execFileSync('npx', ['eslint', ...written], { cwd: dir, stdio: 'inherit' });
    }
    if (o.test)
      execFileSync(
        'npx',
        [
          'vitest',
          'run',
          '--maxWorkers=1',
          'test/integration/api/version.test.ts',
          'test/integration/api/coverage.test.ts',
          'test/integration/api/openapi.test.ts',
          'test/unit/api/operations.test.ts',
          'test/unit/lint/generated.test.ts',
        ],
        { cwd: dir, stdio: 'inherit' },
      );
    return { written, generated, read: JSON.parse(out.trim().split('\n').pop()!) as NewOperation['read'] };
  } finally {
    copy.remove();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const r = newOperation(ROOT, {
    typecheck: process.argv.includes('--typecheck'),
    test: process.argv.includes('--test'),
  });
  console.log(`a new operation (GET /v1/version) took ${r.written.length} files written by hand:`);
  for (const f of r.written) console.log(`  ${f}`);
  console.log(`and ${r.generated.length} regenerated by npm run generate:`);
  for (const f of r.generated) console.log(`  ${f}`);
  console.log(`the copy's router and document: ${JSON.stringify(r.read)}`);
}
