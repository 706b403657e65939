import type { Config } from '../config/index.js';
import type { Clock } from '../core/index.js';
import type { Logger } from '../core/log/index.js';
import {
  EventLog,
  Journal,
  MerchantOrderIds,
  Outbox,
  ensureApiToken,
  ensureTokenFile,
  ensureExpiryKey,
  lockStateDir,
  sealJournalExpiries,
  type ExpiryKey,
  openCheckedTerminalDatabase,
  WriteHealth,
  type Db,
} from '../store/index.js';
import type { Held } from './held.js';

/** The daemon's state directory, opened: its lock, the database and what is kept in it, and the API token. */
export interface DaemonStore {
  readonly db: Db;
  readonly apiTokenFile: string;
  readonly token: string;
  /** The kiosk's and the cashier screen's own tokens (`kiosk-token`, `cashier-token`): their own sales only. */
  readonly screenTokens: { kiosk: string; cashier: string };
  readonly writeHealth: WriteHealth;
  readonly journal: Journal;
  readonly outbox: Outbox;
  readonly orderIds: MerchantOrderIds;
  /** What the card sales' and voids' engines keep their rows with, the expiry's key (`expiry-key`) among them. */
  readonly cardLedger: { db: Db; journal: Journal; outbox: Outbox; orderIds: MerchantOrderIds; expiryKey: ExpiryKey };
  /** What GET /v1/events sent, for replay; stopped cleanly just before the database closes. */
  readonly eventLog: EventLog;
}

/**
 * Opens the state directory for a starting daemon, each part registered in `held` to close: one
 * daemon per state directory (a second one refuses at the lock, before it opens the database),
 * the checked database, the API token, and the journal's room to commit.
 */
export async function openStore(
  held: Held,
  config: Config,
  opts: { clock: Clock; log: Logger; diskReserveBytes?: number | undefined },
): Promise<DaemonStore> {
  const { clock, log } = opts;
  const values = config.values;
  // One daemon per state directory: a second one refuses here, before it opens the database.
  const lock = await held.step('the state directory lock', () => lockStateDir(values.stateDir));
  held.add('the state directory lock', () => lock.release());
  const db = await held.step('the database', () =>
    openCheckedTerminalDatabase(values.stateDir, log.child({ component: 'store' })),
  );
  held.add('the database', () => db.close());
  // Closed just before the database, after everything that publishes: a clean stop (event-log.ts).
  const eventLog = new EventLog(db);
  held.add('the event log', () => eventLog.stop());
  const { file: apiTokenFile, token } = await held.step('the API token', () => ensureApiToken(values.stateDir));
  const screenTokens = await held.step('the screens’ tokens', () => ({
    kiosk: ensureTokenFile(values.stateDir, 'kiosk-token').token,
    cashier: ensureTokenFile(values.stateDir, 'cashier-token').token,
  }));
  // The journal keeps no card expiry: rows of earlier versions get its keyed hash in its place, once.
  const expiryKey = await held.step('the card expiry key', () => {
    const { key } = ensureExpiryKey(values.stateDir);
    const sealed = sealJournalExpiries(db, key);
    if (sealed > 0) log.info({ rows: sealed }, 'journal rows: card expiry replaced by its keyed hash');
    return key;
  });
  // The journal's room to commit: no new payment starts while the disk is (nearly) full or a write
  // failed (any table: journal, outbox, events, telemetry) until one commits again; heals by itself.
  const writeHealth = new WriteHealth({
    dir: values.stateDir,
    db,
    log: log.child({ component: 'store' }),
    now: () => new Date(),
    ...(opts.diskReserveBytes !== undefined ? { reserveBytes: opts.diskReserveBytes } : {}),
  });
  const journal = new Journal(db);
  const outbox = new Outbox(db);
  const orderIds = new MerchantOrderIds(db, {
    ordinal: values.terminal.orderIdTerminal ?? values.terminal.ordinal,
    clock,
  });
  const cardLedger = { db, journal, outbox, orderIds, expiryKey };
  return { db, apiTokenFile, token, screenTokens, writeHealth, journal, outbox, orderIds, cardLedger, eventLog };
}
