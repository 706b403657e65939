import path from 'node:path';
import type { Config } from '../config/index.js';
import type { Logger } from '../core/log/index.js';
import { sandboxListenOptions } from '../factory/index.js';
import { buildSandbox, listenSandbox, type RunningSandbox } from '../sandbox/index.js';

/**
 * The embedded sandbox host a command starts for itself on the daemon's database and addresses, when
 * the configuration asks for one (`environment: sandbox`, `sandbox.embedded`); undefined otherwise.
 */
export async function startEmbeddedSandbox(config: Config, log: Logger): Promise<RunningSandbox | undefined> {
  const v = config.values;
  if (v.environment !== 'sandbox' || !v.sandbox.embedded) return undefined;
  return listenSandbox(
    buildSandbox({
      dbFile: path.join(v.stateDir, 'sandbox', 'acquirer.db'),
      log,
      ...(v.sandbox.outcomeAttempts !== undefined ? { outcomeAttempts: v.sandbox.outcomeAttempts } : {}),
    }),
    sandboxListenOptions(config),
  );
}
