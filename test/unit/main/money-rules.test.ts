import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG_PATH, loadConfig } from '../../../src/config/index.js';
import { undoRaceOptions } from '../../../src/main/money-rules.js';
import { writeConfigWithSecret } from '../../helpers/config.js';
import { useTempDirs } from '../../helpers/temp-dir.js';

const tempDir = useTempDirs();

function values(payments: Record<string, unknown>) {
  const config = JSON.parse(readFileSync(DEFAULT_CONFIG_PATH, 'utf8')) as Record<string, any>;
  config.payments = { ...(config.payments as object | undefined), ...payments };
  return loadConfig({ path: writeConfigWithSecret(tempDir(), config), env: {} }).values;
}

/** The visibility rule's window after the close comes from the configuration (issue 29), not a constant. */
describe('the rules of money the configuration tunes', () => {
  it('payments.visibilityWindowSeconds is the window after the close the undo race and the void undo count', () => {
    // On cfef2df the key was refused (strict schema) and the window was the engine's 15 min constant.
    expect(undoRaceOptions(values({ visibilityWindowSeconds: 3600 })).visibilityWindowMs).toBe(3_600_000);
    expect(undoRaceOptions(values({})).visibilityWindowMs).toBe(900_000);
  });

  it('payments.undoUnclearDeclines is off by default', () => {
    expect(values({}).payments.undoUnclearDeclines).toBe(false);
    expect(values({ undoUnclearDeclines: true }).payments.undoUnclearDeclines).toBe(true);
  });
});
