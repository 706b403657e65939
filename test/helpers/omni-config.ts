import type { Config, ConfigValues, KindSecrets, OmniKeys } from '../../src/config/index.js';

/**
 * The omni kind's keys and secrets, for tests of the omni kind: `acquirer` is a union by kind, so reading
 * `.omni` is a narrowing that throws for another kind (a test that reads them unnarrowed stops compiling the
 * day a second kind's folder is added: scripts/house/second-acquirer.ts --typecheck).
 */
export function omniValuesOf(values: Pick<ConfigValues, 'acquirer'>): OmniKeys {
  const a = values.acquirer;
  if (a.kind !== 'omni') throw new Error(`acquirer.kind is ${JSON.stringify(a.kind)}, not omni`);
  return a.omni;
}

/** The omni kind's secrets (`Config.secrets.acquirer.omni`). */
export function omniSecretsOf(config: Pick<Config, 'secrets'>): KindSecrets<'omni'> {
  const s = config.secrets.acquirer;
  if (s.kind !== 'omni') throw new Error(`acquirer.kind is ${JSON.stringify(s.kind)}, not omni`);
  return s.omni;
}
