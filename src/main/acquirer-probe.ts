import { acquirerContext } from '../acquirer/index.js';
import type { AcquirerReach } from '../api/index.js';
import type { Logger } from '../core/log/index.js';
import type { AcquirerBackend } from '../engine/index.js';

/** Timings of the acquirer probe, ms. */
export interface AcquirerProbeOptions {
  /** While the acquirer answers: ask once this long after the last answer heard (any request's). Default 5 min. */
  slowMs?: number;
  /** While it does not: the first pause after a failed probe; doubles per failure up to `fastMaxMs`. Default 1 s. */
  fastMinMs?: number;
  /** The longest pause between probes while the acquirer reads unreachable. Default 60 s. */
  fastMaxMs?: number;
  /** Each probe's own timeout (a kiosk should not wait the sale timeout to learn the host is back). Default 5 s. */
  timeoutMs?: number;
}

export interface AcquirerProbeDeps {
  /**
   * One cheap request that is never a sale: the daemon passes the OAuth token request
   * (`OmniTokens.refresh`). It goes through the acquirer's HTTP layer, so its `Date` header
   * reaches the HostClock and the reach like any other answer's.
   */
  ask: (timeoutMs: number) => Promise<void>;
  reach: AcquirerReach;
  /** The same clock the reach reads (host time). */
  now: () => Date;
  log: Logger;
  /** [0, 1): the jitter of the pauses; tests pass a fixed one. */
  random?: () => number;
}

/** What one probe concluded. */
export type ProbeResult = 'answered' | 'failed';

/**
 * Keeps `GET /v1/health`'s acquirer reachability current without a sale: while the acquirer
 * reads unreachable it asks again with exponential backoff (jittered between half and all of the
 * step) until it answers; while it answers, it asks at a slow period when nothing else was heard,
 * so a host that went away is noticed too. A probe counts as an answer when the host answered
 * HTTP below 500 (a 401 still proves it is there); no answer, a reset or a 5xx is a failure.
 */
export class AcquirerProbe {
  readonly #d: AcquirerProbeDeps;
  readonly #slowMs: number;
  readonly #fastMinMs: number;
  readonly #fastMaxMs: number;
  readonly #timeoutMs: number;
  #timer: NodeJS.Timeout | undefined;
  #inflight: Promise<ProbeResult> | undefined;
  #failures = 0;
  #stopped = true;
  #unsubscribe: (() => void) | undefined;
  /** How many probes were sent (health and tests read it). */
  probes = 0;

  constructor(deps: AcquirerProbeDeps, options: AcquirerProbeOptions = {}) {
    this.#d = deps;
    this.#slowMs = options.slowMs ?? 300_000;
    this.#fastMinMs = options.fastMinMs ?? 1_000;
    this.#fastMaxMs = Math.max(this.#fastMinMs, options.fastMaxMs ?? 60_000);
    this.#timeoutMs = options.timeoutMs ?? 5_000;
  }

  /** Starts probing; the acquirer reading unreachable (from any request) starts the fast cycle at once. */
  start(): this {
    if (!this.#stopped) return this;
    this.#stopped = false;
    this.#unsubscribe = this.#d.reach.onChange((reachable) => {
      if (!reachable && !this.#inflight) this.#schedule(this.#fastMinMs);
    });
    this.#scheduleNext();
    return this;
  }

  /** Stops the timer and waits for a probe in flight. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#unsubscribe?.();
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#inflight;
  }

  /** Probes now (one at a time: a call during a probe shares it), records the outcome in the reach. */
  probe(): Promise<ProbeResult> {
    this.#inflight ??= this.#probe().finally(() => {
      this.#inflight = undefined;
      if (!this.#stopped) this.#scheduleNext();
    });
    return this.#inflight;
  }

  async #probe(): Promise<ProbeResult> {
    this.probes++;
    const was = this.#d.reach.reachable;
    let failure: string | undefined;
    try {
      await this.#d.ask(this.#timeoutMs);
    } catch (e) {
      const ctx = acquirerContext(e);
      if (!ctx || ctx.transport !== undefined || (ctx.status ?? 0) >= 500) failure = `probe: ${(e as Error).message}`;
      else this.#d.log.warn({ err: e }, 'the acquirer answers the probe, but refuses it');
    }
    if (failure === undefined) {
      this.#d.reach.answered();
      this.#failures = 0;
      if (was === false) this.#d.log.info('the acquirer answers again (probe)');
      return 'answered';
    }
    this.#d.reach.failed(failure);
    this.#failures++;
    this.#d.log.warn({ failures: this.#failures, reason: failure }, 'the acquirer does not answer the probe');
    return 'failed';
  }

  #scheduleNext(): void {
    if (this.#d.reach.reachable === false) {
      const step = Math.min(
        this.#fastMaxMs,
        this.#fastMinMs * 2 ** Math.min(this.#failures > 0 ? this.#failures - 1 : 0, 30),
      );
      this.#schedule(Math.round(step / 2 + (step / 2) * (this.#d.random ?? Math.random)()));
      return;
    }
    const last = this.#d.reach.lastAnswerAt?.getTime();
    const since = last === undefined ? this.#slowMs : this.#d.now().getTime() - last;
    this.#schedule(Math.max(this.#fastMinMs, this.#slowMs - since));
  }

  #schedule(ms: number): void {
    if (this.#stopped) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      // Something else was heard since: the slow probe waits for its own period again.
      if (
        this.#d.reach.reachable !== false &&
        this.#d.reach.lastAnswerAt &&
        this.#d.now().getTime() - this.#d.reach.lastAnswerAt.getTime() < this.#slowMs
      ) {
        this.#scheduleNext();
        return;
      }
      void this.probe();
    }, ms);
    this.#timer.unref();
  }
}

/** The daemon's probe: the acquirer backend's own (the omni one: the transactional token request), started at once. */
export function startAcquirerProbe(
  backend: Pick<AcquirerBackend, 'probe'>,
  reach: AcquirerReach,
  clock: { now(): Date },
  log: Logger,
  options: AcquirerProbeOptions = {},
): AcquirerProbe {
  return new AcquirerProbe(
    {
      ask: (timeoutMs) => backend.probe(timeoutMs),
      reach,
      now: () => clock.now(),
      log: log.child({ component: 'acquirer-probe' }),
    },
    options,
  ).start();
}
