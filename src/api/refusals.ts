import type { IncomingMessage } from 'node:http';
import { TallyLog, tallyText, type Logger } from '../core/index.js';

/**
 * What the API logs of the requests it refuses (PCI DSS 10.2.1.4: failed authentication is
 * logged), without an attacker being able to fill the disk with it: one `warn` line per client
 * address per `intervalMs`, with how many of each refusal it sent since; never a token, a
 * header or a body; never a stack (a refusal is expected, not a fault). At most 1,024 addresses
 * are tracked; the oldest is told and forgotten first.
 */
export class RefusalLog {
  readonly #tally: TallyLog;

  constructor(log: Logger, o: { intervalMs?: number; now?: () => number } = {}) {
    this.#tally = new TallyLog({
      ...o,
      tell: ({ source, counts, last, perSeconds }) =>
        log.warn(
          { client: source, refused: counts, ...(last ? { lastRoute: last } : {}), perSeconds },
          `API requests refused from ${source}: ${tallyText(counts)} (one line per address per ${perSeconds} s)`,
        ),
    });
  }

  /** A request refused with `code` (`UNAUTHORIZED`, `SUPERVISOR_REQUIRED`, …). */
  refused(req: IncomingMessage, code: string): void {
    const route = `${req.method ?? '?'} ${(req.url ?? '').split('?')[0]?.slice(0, 128)}`;
    this.#tally.note(req.socket.remoteAddress ?? 'unknown', code, route);
  }
}
