import { ESLint, type Linter, type Rule } from 'eslint';
import tseslint from 'typescript-eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/** The house's lint rules (eslint/rules/, one file each), each refusing a planted violation. */
const pluginPath = '../../../eslint/plugin.js';
const exceptionsPath = '../../../eslint/function-size-exceptions.js';
const plugin = ((await import(pluginPath)) as { default: { rules: Record<string, Rule.RuleModule> } }).default;
const { FUNCTION_SIZE_EXCEPTIONS } = (await import(exceptionsPath)) as {
  FUNCTION_SIZE_EXCEPTIONS: Record<string, number>;
};

function linter(rules: Linter.RulesRecord): ESLint {
  return new ESLint({
    cwd: process.cwd(),
    overrideConfigFile: true,
    overrideConfig: [
      { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser }, plugins: { omnipos: plugin }, rules },
    ],
  });
}

/**
 * The repository's own configuration (eslint.config.js, what `npm run lint` runs), one instance for every
 * test that reads it: its first type-aware lint builds the TypeScript program, which under load takes longer
 * than a test's limit, so it is built once before them.
 */
const repo = new ESLint({ cwd: process.cwd() });
beforeAll(async () => {
  await repo.lintText('export {};\n', { filePath: 'src/core/clock.ts' });
}, 300_000);

async function lint(eslint: ESLint, file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: file });
  return result!.messages.map((m) => m.message);
}

/** A function named `name` of `lines` lines. */
const fn = (name: string, lines: number): string =>
  `export function ${name}(): number {\n${'  void 0;\n'.repeat(lines - 3)}  return 1;\n}\n`;

describe('omnipos/no-double-cast', () => {
  const eslint = linter({ 'omnipos/no-double-cast': 'error' });

  it('refuses `as unknown as T` and `<T><unknown>x`, and lets one cast through', async () => {
    expect(await lint(eslint, 'src/x.ts', 'export const a = (1 as unknown as string).length;')).toEqual([
      'no `as unknown as string`: narrow the value (a type guard, instanceof, a schema) or type what holds it',
    ]);
    expect(await lint(eslint, 'src/x.ts', 'export const b = <{ n: 1 }>(<unknown>2);')).toHaveLength(1);
    expect(
      await lint(eslint, 'src/x.ts', 'export const c = (3 as unknown) ?? 4; export const d = 5 as number;'),
    ).toEqual([]);
  });
});

describe('omnipos/function-size', () => {
  const exceptions = { 'src/x.ts:held': 120 };
  const eslint = linter({ 'omnipos/function-size': ['error', { max: 100, exceptions }] });

  it('refuses a function over the limit, and lets one at the limit through', async () => {
    expect(await lint(eslint, 'src/x.ts', fn('long', 101))).toEqual([
      'long is 101 lines long (the limit is 100): split it into functions named for what they hold',
    ]);
    expect(await lint(eslint, 'src/x.ts', fn('fits', 100))).toEqual([]);
    const method = `export class K {\n  #m(): void {\n${'    void 0;\n'.repeat(100)}  }\n}\n`;
    expect(await lint(eslint, 'src/x.ts', method)).toEqual([
      'K.#m is 102 lines long (the limit is 100): split it into functions named for what they hold',
    ]);
  });

  it('holds an exception to its length: it may shrink, never grow, and leaves the list once it fits', async () => {
    expect(await lint(eslint, 'src/x.ts', fn('held', 120))).toEqual([]);
    expect(await lint(eslint, 'src/x.ts', fn('held', 110))).toEqual([]);
    expect(await lint(eslint, 'src/x.ts', fn('held', 121))).toEqual([
      'held grew to 121 lines (its exception allows 120): an exception may shrink, never grow',
    ]);
    expect(await lint(eslint, 'src/x.ts', fn('held', 90))).toEqual([
      'held is 90 lines long, within the limit of 100: remove "src/x.ts:held" from eslint/function-size-exceptions.js',
    ]);
    // the exception is the file's: the same name elsewhere is held to the limit
    expect(await lint(eslint, 'src/y.ts', fn('held', 110))).toHaveLength(1);
  });

  it('names only functions that exist and are over the limit today (the list of eslint/function-size-exceptions.js)', async () => {
    const strict = linter({ 'omnipos/function-size': ['error', { max: 100 }] });
    const files = [...new Set(Object.keys(FUNCTION_SIZE_EXCEPTIONS).map((k) => k.split(':')[0]!))];
    const over: string[] = [];
    for (const result of await strict.lintFiles(files))
      for (const m of result.messages)
        over.push(`${result.filePath.slice(process.cwd().length + 1)}:${m.message.split(' ')[0]}`);
    expect(over.sort()).toEqual(Object.keys(FUNCTION_SIZE_EXCEPTIONS).sort());
  });
});

describe('max-lines: small files, by the repository configuration (eslint.config.js)', () => {
  const maxLinesOf = async (file: string): Promise<unknown> =>
    ((await repo.calculateConfigForFile(file)) as { rules?: Record<string, unknown> }).rules?.['max-lines'];

  it('holds every source, test, script and rule file to 400 lines, comments and blank lines counted', async () => {
    for (const file of [
      'src/engine/sale/machine.ts',
      'drivers/pinpad/index.ts',
      'tables/test-cards.ts',
      'test/unit/engine/sale/machine.test.ts',
      'scripts/house-figures.ts',
      'eslint/rules/function-size.js',
      'src/screens/cashier.js',
    ])
      expect(await maxLinesOf(file), file).toEqual([2, { max: 400, skipBlankLines: false, skipComments: false }]);
  });

  it('lets a generated file be as long as what it is generated from', async () => {
    expect(await maxLinesOf('src/config/config-shape.generated.ts')).toBeUndefined();
  });

  it('refuses a file of 401 lines', async () => {
    const eslint = new ESLint({
      overrideConfigFile: true,
      overrideConfig: [
        {
          files: ['**/*.ts'],
          languageOptions: { parser: tseslint.parser },
          rules: { 'max-lines': ['error', { max: 400 }] },
        },
      ],
    });
    expect(await lint(eslint, 'src/x.ts', 'export const a = 1;\n'.repeat(401))).toEqual([
      'File has too many lines (401). Maximum allowed is 400.',
    ]);
  });
});

describe('omnipos/no-elapsed-upper-bound', () => {
  const eslint = linter({ 'omnipos/no-elapsed-upper-bound': 'error' });
  const message = (text: string): string =>
    `an upper bound on elapsed time (${text}) fails under load, not on a defect: catch a hang or a wrong wait with the test's own timeout (make the wrong wait far longer than it), or log the figure`;

  it('refuses an upper bound on elapsed wall time, direct or through a variable, and lets a lower bound through', async () => {
    const t = 'const t0 = Date.now();\n';
    expect(await lint(eslint, 'test/x.test.ts', `${t}expect(Date.now() - t0).toBeLessThan(50);`)).toEqual([
      message('Date.now() - t0'),
    ]);
    const viaVariable = `const t1 = performance.now();\nconst ms = performance.now() - t1;\nexpect(ms).toBeLessThanOrEqual(9);`;
    expect(await lint(eslint, 'test/x.test.ts', viaVariable)).toEqual([message('ms')]);
    expect(await lint(eslint, 'test/x.test.ts', `${t}expect(Date.now() - t0).toBeGreaterThanOrEqual(900);`)).toEqual(
      [],
    );
    expect(await lint(eslint, 'test/x.test.ts', 'const n = 3 - 1;\nexpect(n).toBeLessThan(5);')).toEqual([]);
  });

  it('holds every test file of the repository (eslint.config.js turns it on for test/)', async () => {
    const config = (await repo.calculateConfigForFile('test/unit/x.test.ts')) as {
      rules: Record<string, unknown>;
    };
    expect(config.rules['omnipos/no-elapsed-upper-bound']).toEqual([2]);
  });
});

describe('no AbortSignal.timeout inside AbortSignal.any in the product (collected before it fires on Node 20)', () => {
  it('refuses the join, by the repository configuration, and lets withDeadline through', async () => {
    const bad = 'export const s = (x: AbortSignal): AbortSignal => AbortSignal.any([x, AbortSignal.timeout(5)]);\n';
    const [result] = await repo.lintText(bad, { filePath: 'src/core/deadline.ts' });
    expect(result!.messages.map((m) => m.message)).toEqual([
      'AbortSignal.timeout inside AbortSignal.any is collected before it fires on Node 20: use withDeadline (src/core/deadline.ts)',
    ]);
  });
});

describe('`npm run lint` (in `npm test`) by the repository configuration: a double cast and an over-long function fail it', () => {
  const planted = async (file: string, code: string): Promise<string[]> =>
    (await repo.lintText(code, { filePath: file }))[0]!.messages.map((m) => `${m.ruleId}: ${m.message}`);

  it('refuses `as unknown as` in src, drivers and tables', async () => {
    const cast = 'export const a = (1 as unknown as string).length;\n';
    for (const file of ['src/core/clock.ts', 'drivers/pinpad/index.ts', 'tables/test-cards.ts'])
      expect(await planted(file, cast), file).toEqual([
        'omnipos/no-double-cast: no `as unknown as string`: narrow the value (a type guard, instanceof, a schema) or type what holds it',
      ]);
  });

  it('refuses a function of 101 lines in src, drivers and tables', async () => {
    for (const file of ['src/core/clock.ts', 'drivers/pinpad/index.ts', 'tables/test-cards.ts'])
      expect(await planted(file, fn('long', 101)), file).toEqual([
        'omnipos/function-size: long is 101 lines long (the limit is 100): split it into functions named for what they hold',
      ]);
  });
});
