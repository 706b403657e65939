import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { tempDirForFile } from '../../helpers/temp-dir.js';

/**
 * A cash register's client generated from the document: the types of `src/api/openapi.json`
 * (written by openapi-typescript, as a cash register's developer would generate them)
 * type-check the integration guide's TypeScript walk-through (docs/integration.md), strict. A
 * walk-through that misuses a field does not.
 */

const ROOT = new URL('../../../', import.meta.url).pathname;
const DOC = path.join(ROOT, 'src/api/openapi.json');
const MARK = '<!-- client walk-through: type-checked by test/integration/api/openapi-client.test.ts -->';
const dir = tempDirForFile('omnipos-client-');

/** The integration guide's walk-through (docs/integration.md): the ```ts block after the mark. */
function walkThrough(): string {
  const readme = readFileSync(path.join(ROOT, 'docs/integration.md'), 'utf8');
  const at = readme.indexOf(MARK);
  expect(at, 'docs/integration.md has the client walk-through mark').toBeGreaterThan(0);
  const block = /```ts\n([\s\S]*?)```/.exec(readme.slice(at));
  expect(block).not.toBeNull();
  return block![1] as string;
}

async function generate(): Promise<string> {
  const out = path.join(dir, 'omnipos-api.ts');
  // A request field with a default (installments, interest, confirmation) is optional for the caller:
  // openapi-typescript makes defaulted fields required unless told not to.
  const ast = await openapiTS(new URL(`file://${DOC}`), { defaultNonNullable: false });
  writeFileSync(out, astToString(ast));
  return out;
}

/** Type-checks `code` beside the generated types; the diagnostics as text. */
function typecheck(code: string, name: string): string[] {
  const file = path.join(dir, `${name}.ts`);
  writeFileSync(file, code);
  const program = ts.createProgram([file], {
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2022.d.ts'],
    types: ['node'],
    typeRoots: [path.join(ROOT, 'node_modules/@types')],
    noEmit: true,
    skipLibCheck: true,
  });
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file === undefined || !d.file.fileName.includes('node_modules'))
    .map(
      (d) => `${d.file ? path.basename(d.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
    );
}

describe("a client generated from the OpenAPI document, on the integration guide's walk-through", () => {
  it('type-checks strict with the types openapi-typescript writes', async () => {
    await generate();
    writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}');
    expect(typecheck(walkThrough(), 'walk-through')).toEqual([]);
  }, 120_000);

  it('fails on a misused field, an unknown method, a missing required field (the types are not `any`)', () => {
    const code = walkThrough();
    const broken = [
      code.replace('sale.fiscal.authorizationCode', 'sale.fiscal.authorisationCode'),
      code.replace("method: 'credit'", "method: 'cheque'"),
      code.replace('amount: 2510, ', ''),
      code.replace("e.status !== 'pending'", "e.status !== 'waiting'"),
    ];
    broken.forEach((b, i) => {
      expect(b).not.toBe(code);
      expect(typecheck(b, `broken-${i}`).length, `variant ${i}`).toBeGreaterThan(0);
    });
  }, 120_000);
});
