import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ACQUIRER_KINDS, DEFAULT_CONFIG_PATH, loadConfig, type ConfigProblem } from '../../../src/config/index.js';
import { OmniposError } from '../../../src/core/errors/index.js';
import { writeConfigWithSecret } from '../../helpers/config.js';
import { useTempDirs } from '../../helpers/temp-dir.js';

/** `acquirer.kind` chooses the acquirer backend (src/main/acquirer-backend.ts); default omni. */
const tempDir = useTempDirs();

function write(mutate: (acquirer: Record<string, unknown>) => void): string {
  const config = JSON.parse(readFileSync(DEFAULT_CONFIG_PATH, 'utf8')) as Record<string, any>;
  mutate(config.acquirer);
  return writeConfigWithSecret(tempDir(), config);
}

describe('acquirer.kind', () => {
  it('defaults to omni, the only backend this build has', () => {
    expect(ACQUIRER_KINDS).toEqual(['omni']);
    expect(loadConfig({ path: write((a) => delete a.kind), env: {} }).values.acquirer.kind).toBe('omni');
    expect(loadConfig({ path: write((a) => (a.kind = 'omni')), env: {} }).values.acquirer.kind).toBe('omni');
  });

  it('refuses an unknown kind by name, saying which kinds there are', () => {
    let problems: ConfigProblem[] = [];
    try {
      loadConfig({ path: write((a) => (a.kind = 'stone')), env: {} });
    } catch (e) {
      expect(e).toBeInstanceOf(OmniposError);
      expect((e as OmniposError).code).toBe('CONFIG_INVALID');
      problems = (e as OmniposError).context.problems as ConfigProblem[];
    }
    expect(problems).toEqual([
      { path: 'acquirer.kind', message: 'unknown acquirer "stone": this build speaks to "omni"' },
    ]);
  });

  it('refuses a kind that is not a string the same way, from the environment too', () => {
    expect(() => loadConfig({ path: write((a) => (a.kind = 7)), env: {} })).toThrow(/acquirer\.kind/);
    expect(() => loadConfig({ path: write(() => undefined), env: { OMNIPOS_ACQUIRER__KIND: 'getnet' } })).toThrow(
      expect.objectContaining({
        code: 'CONFIG_INVALID',
        context: expect.objectContaining({
          problems: [{ path: 'acquirer.kind', message: 'unknown acquirer "getnet": this build speaks to "omni"' }],
        }),
      }),
    );
  });
});
