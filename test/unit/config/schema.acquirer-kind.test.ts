import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ACQUIRER_KINDS, DEFAULT_CONFIG_PATH, loadConfig, type ConfigProblem } from '../../../src/config/index.js';
import { OmniposError } from '../../../src/core/errors/index.js';
import { factoryKinds } from '../../../src/factory/index.js';
import { writeConfigWithSecret } from '../../helpers/config.js';
import { useTempDirs } from '../../helpers/temp-dir.js';
import { omniValuesOf } from '../../helpers/omni-config.js';

/**
 * `acquirer` is a union by kind: `kind` chooses the backend (src/factory/acquirer-backend.ts), and that
 * kind's own keys sit under its name (`acquirer.omni`). A file of the shape before the kinds (omni's
 * keys flat beside `kind`) is read as it was.
 */
const tempDir = useTempDirs();

function write(mutate: (acquirer: Record<string, unknown>) => void): string {
  const config = JSON.parse(readFileSync(DEFAULT_CONFIG_PATH, 'utf8')) as Record<string, any>;
  mutate(config.acquirer);
  return writeConfigWithSecret(tempDir(), config);
}

/** The shipped acquirer section in the shape before the kinds: omni's keys flat. */
const flatten = (a: Record<string, unknown>): void => {
  Object.assign(a, a.omni);
  delete a.omni;
};

const problemsOf = (f: () => unknown): ConfigProblem[] => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(OmniposError);
    expect((e as OmniposError).code).toBe('CONFIG_INVALID');
    return (e as OmniposError).context.problems as ConfigProblem[];
  }
  return [];
};

/** The message for an unknown kind, naming the kinds the factory builds (no test pins the list). */
const unknown = (kind: string): string =>
  `unknown acquirer ${JSON.stringify(kind)}: this build speaks to ${factoryKinds()
    .map((k) => `"${k}"`)
    .join(', ')}`;

describe('acquirer.kind', () => {
  it("the configuration's kinds are the factory's", () => {
    expect([...ACQUIRER_KINDS].sort()).toEqual(factoryKinds().sort());
  });

  it("reads the kind's keys under its name, omni by default", () => {
    const config = loadConfig({ path: write((a) => delete a.kind), env: {} });
    expect(config.values.acquirer.kind).toBe('omni');
    expect(omniValuesOf(config.values).ksi).toBe('03033');
  });

  it('refuses an unknown kind by name, saying which kinds there are', () => {
    expect(problemsOf(() => loadConfig({ path: write((a) => (a.kind = 'stone')), env: {} }))).toEqual([
      { path: 'acquirer.kind', message: unknown('stone') },
    ]);
  });

  it('refuses a kind that is not a string the same way, from the environment too', () => {
    expect(() => loadConfig({ path: write((a) => (a.kind = 7)), env: {} })).toThrow(/acquirer\.kind/);
    expect(
      problemsOf(() => loadConfig({ path: write(() => undefined), env: { OMNIPOS_ACQUIRER__KIND: 'getnet' } })),
    ).toEqual([{ path: 'acquirer.kind', message: unknown('getnet') }]);
  });

  it("refuses another kind's keys and keys beside the kind's block, by their path", () => {
    const paths = problemsOf(() =>
      loadConfig({ path: write((a) => ((a.queryUrl = 'https://q.example'), ((a.omni as any).nope = 1))), env: {} }),
    ).map((p) => p.path);
    expect(paths.sort()).toEqual(['acquirer.omni.nope', 'acquirer.queryUrl']);
  });
});

describe('a configuration of the shape before the kinds (omni keys flat)', () => {
  it('is read as the same configuration, with or without its kind', () => {
    // Each file in its own folder with its secret beside it: the secret's path aside, the same values.
    const read = (mutate: (a: Record<string, unknown>) => void): unknown => {
      const values = loadConfig({ path: write(mutate), env: {} }).values;
      return { ...values.acquirer, omni: { ...omniValuesOf(values), clientSecretFile: '(its folder)/secret' } };
    };
    const now = read(() => undefined);
    const withKind = read(flatten);
    const without = read((a) => (flatten(a), delete a.kind));
    expect(withKind).toEqual(now);
    expect(without).toEqual(now);
  });

  it('its problems are named on the keys as they are now read (`acquirer.omni.…`)', () => {
    const paths = problemsOf(() =>
      loadConfig({ path: write((a) => (flatten(a), (a.queryUrl = 'ftp://x'), delete a.ksi)), env: {} }),
    ).map((p) => p.path);
    expect(paths.sort()).toEqual(['acquirer.omni.ksi', 'acquirer.omni.queryUrl']);
  });

  it('its OMNIPOS_ACQUIRER__<KEY> overrides still set the kind’s key, in either shape of file', () => {
    for (const shape of [() => undefined, flatten]) {
      const config = loadConfig({
        path: write(shape),
        env: { OMNIPOS_ACQUIRER__QUERY_URL: 'https://query.example', OMNIPOS_ACQUIRER__OMNI__TIMEOUT_MS: '900' },
      });
      expect(omniValuesOf(config.values)).toMatchObject({ queryUrl: 'https://query.example', timeoutMs: 900 });
      expect(config.overrides.map((o) => o.path).sort()).toEqual(['acquirer.omni.queryUrl', 'acquirer.omni.timeoutMs']);
    }
  });
});
