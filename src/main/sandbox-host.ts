import path from 'node:path';
import type { Config } from '../config/index.js';
import type { Logger } from '../core/log/index.js';
import type { RunningSandbox } from '../sandbox/index.js';
import type { Db } from '../store/index.js';
import { sandboxListenOptions } from '../factory/index.js';
import type { Held } from './held.js';

/** The embedded sandbox: the omni host's listeners, and the webservice 1.5's when `cardNotPresent` names it. */
export interface EmbeddedSandbox extends RunningSandbox {
  /** Where the webservice 1.5 host listens, the configured address's path kept; absent when not asked for. */
  readonly webservice15Url?: string;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The webservice 1.5 host (its own listener, as the real service is on its own host) when
 * `cardNotPresent.kind` is `webservice15` with a loopback `url`: on that url's port (any free one with
 * `sandbox.port` 0, as the other bases), the configured path kept. A remote url (the acquirer's own
 * test host) starts nothing.
 */
async function startWebservice15(
  config: Config,
  controlsPort: number,
  db: Db,
): Promise<{ url: string; close: () => Promise<void> } | undefined> {
  const cnp = config.values.cardNotPresent;
  if (cnp?.kind !== 'webservice15') return undefined;
  const configured = new URL(cnp.url);
  if (!LOOPBACK.has(configured.hostname)) return undefined;
  const { listenWs15 } = await import('../sandbox/index.js');
  const port = controlsPort === 0 || configured.port === '' ? 0 : Number(configured.port);
  // Its transactions in the sandbox's own file, beside the e-commerce host's: a restart forgets nothing.
  const running = await listenWs15({ port, db });
  const listener = new URL(running.url);
  return { url: `${listener.protocol}//${listener.host}${configured.pathname}`, close: () => running.close() };
}

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
): Promise<EmbeddedSandbox | undefined> {
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
    const options = sandboxListenOptions(config, sandboxPort);
    let ws15: Awaited<ReturnType<typeof startWebservice15>> = undefined;
    try {
      ws15 = await startWebservice15(config, options.port ?? 0, host.ctx.db);
      const running = await listenSandbox(host, options);
      // Where it listens, for `omnipos sandbox credentials` and `omnipos wallet pay` (ports moved: sandbox.port 0).
      const forget = recordInUse(path.join(values.stateDir, 'sandbox'), running);
      return {
        ...running,
        ...(ws15 ? { webservice15Url: ws15.url } : {}),
        close: async () => {
          forget();
          // The webservice 1.5 listener first: its messages write to the sandbox's database, closed with the host.
          await ws15?.close();
          await running.close();
        },
      };
    } catch (e) {
      host.close();
      await ws15?.close();
      throw e;
    }
  });
  return sandbox;
}
