import type { Config } from '../config/index.js';
import type { Clock } from '../core/index.js';
import type { Logger } from '../core/log/index.js';
import {
  InitializationStore,
  TableSet,
  assertOperational,
  initializationDue,
  initialize,
  isNewerVersion,
  parseInitialization,
  type TablesSource,
} from '../initialization/index.js';
import type { Db } from '../store/index.js';

/**
 * The initialization tables in force for product selection, and their renewal: downloaded at
 * first start in the sandbox environment; re-initialized when a sale's answer names a newer
 * `InitializationVersion`, and on a schedule. A new version is put in force at once; the pinpad's
 * chip tables are loaded by `omnipos init` (a load now could interrupt a card read in progress).
 */
export class TablesInForce {
  readonly store: InitializationStore;
  #set: TableSet | undefined;
  /** The re-initialization under way; it resolves to its failure, if any (renew never rejects). */
  #renewing: Promise<{ error: unknown } | undefined> | undefined;
  readonly #timer: NodeJS.Timeout;
  readonly #log: Logger;

  private constructor(
    db: Db,
    private readonly config: Config,
    private readonly source: TablesSource,
    private readonly clock: Clock,
    log: Logger,
  ) {
    this.store = new InitializationStore(db, clock);
    const stored = this.store.current();
    this.#set = stored ? new TableSet(stored) : undefined;
    this.#log = log.child({ component: 'initialization' });
    const everyHours = config.values.initialization.everyHours;
    this.#timer = setInterval(() => {
      if (
        initializationDue({
          newerVersionSeen: false,
          lastSwitchedAt: this.store.switchedAt(),
          now: clock.now(),
          everyHours,
        })
      )
        this.renew('scheduled');
    }, 3_600_000);
    this.#timer.unref();
  }

  /** The tables stored in this database; in the sandbox environment, downloaded when there are none. */
  static async open(db: Db, config: Config, source: TablesSource, clock: Clock, log: Logger): Promise<TablesInForce> {
    const t = new TablesInForce(db, config, source, clock, log);
    if (!t.#set && config.values.environment === 'sandbox') {
      try {
        const tables = parseInitialization(await t.#download());
        t.store.install(tables);
        t.#set = new TableSet(tables);
      } catch (e) {
        log.warn({ err: e }, 'initialization from the sandbox failed; card sales have no products');
      }
    }
    return t;
  }

  /** The tables product selection reads now (undefined before the first initialization). */
  current(): TableSet | undefined {
    return this.#set;
  }

  /** No sale until initialized, nor while the acquirer locks every function but initialization. */
  readonly canSell = (): void => assertOperational(this.#set?.tables);

  /** Told the `InitializationVersion` each sale answer carries: a newer one starts a re-initialization. */
  readonly onVersion = (version: string): void => {
    if (isNewerVersion(version, this.store.currentVersion())) this.renew(`a sale's answer names version ${version}`);
  };

  /** Re-initializes once at a time; a failure leaves the tables in force as they were. */
  renew(reason: string): void {
    this.#renewing ??= (async () => {
      try {
        const r = await initialize({ source: { download: () => this.#download() }, store: this.store, log: this.#log });
        const current = this.store.current();
        if (current) this.#set = new TableSet(current);
        this.#log.info({ reason, version: r.version, installed: r.installed }, 're-initialized');
        return undefined;
      } catch (e) {
        this.#log.warn({ reason, err: e }, 're-initialization failed; the tables in force stay');
        return { error: e };
      } finally {
        this.#renewing = undefined;
      }
    })();
  }

  /** Re-initializes now (the fleet's `init` command) and answers the version in force after it; throws what made it fail. */
  async reinitialize(reason: string): Promise<{ version: string | undefined }> {
    this.renew(reason);
    const failed = await this.#renewing;
    if (failed) throw failed.error;
    return { version: this.store.currentVersion() };
  }

  /** Stops the schedule and waits for a re-initialization under way. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#renewing;
  }

  #download(): Promise<unknown> {
    return this.source.download();
  }
}
