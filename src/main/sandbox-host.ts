import path from 'node:path';
import type { Config } from '../config/index.js';
import type { Logger } from '../core/log/index.js';
import type { RunningSandbox } from '../sandbox/index.js';
import { sandboxListenOptions } from '../factory/index.js';
import type { Held } from './held.js';

/**
 * The embedded sandbox host, when the configuration asks for one (the sandbox environment with
 * `sandbox.embedded`), listening (the caller registers its close); otherwise undefined. A start
 * stopped or failed while it opens leaves nothing open (`held.step`).
 */
export async function startEmbeddedSandbox(
  held: Held,
  config: Config,
  log: Logger,
  sandboxPort: number | undefined,
): Promise<RunningSandbox | undefined> {
  const values = config.values;
  if (values.environment !== 'sandbox' || !values.sandbox.embedded) return undefined;
  const sandbox = await held.step('the embedded sandbox host', async () => {
    // Imported only here: a production terminal never loads the sandbox host (fast start).
    const { buildSandbox, listenSandbox, recordInUse } = await import('../sandbox/index.js');
    const host = buildSandbox({
      dbFile: path.join(values.stateDir, 'sandbox', 'acquirer.db'),
      log,
      ...(values.sandbox.outcomeAttempts !== undefined ? { outcomeAttempts: values.sandbox.outcomeAttempts } : {}),
      qrValidityMs: values.qr.validitySeconds * 1000,
      // The terminal-built wallet QR needs an acquirer that registers such codes: the sandbox
      // plays one only when this terminal is set to build them (the host's default refuses them, 422.002).
      scenario: { registersTerminalQr: values.qr.provider === 'terminal' },
    });
    try {
      const running = await listenSandbox(host, sandboxListenOptions(config, sandboxPort));
      // Where it listens, for `omnipos sandbox credentials` and `omnipos wallet pay` (ports moved: sandbox.port 0).
      const forget = recordInUse(path.join(values.stateDir, 'sandbox'), running);
      return {
        ...running,
        close: async () => {
          forget();
          await running.close();
        },
      };
    } catch (e) {
      host.close();
      throw e;
    }
  });
  return sandbox;
}
