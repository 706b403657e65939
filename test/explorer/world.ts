import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '../../src/core/log/index.js';
import { closeAfter } from './closes.js';
import { PaymentLock } from '../../src/engine/payment-lock.js';
import { OutboxForwarder } from '../../src/engine/outbox/forwarder.js';
import type { ReceiptPort } from '../../src/engine/ports.js';
import { PixEngine } from '../../src/engine/pix/engine.js';
import { QrEngine } from '../../src/engine/qr/engine.js';
import { CnpEngine } from '../../src/engine/cnp/engine.js';
import { SaleEngine } from '../../src/engine/sale/engine.js';
import { VoidEngine } from '../../src/engine/void/engine.js';
import { walletPort } from './wallet-void-host.js';
import { SupervisorGate } from '../../src/engine/void/supervisor.js';
import { DayBook } from '../../src/operations/day/index.js';
import { Journal, MerchantOrderIds, Outbox, openTerminalDatabase, type Db } from '../../src/store/index.js';
import type { JournalEntry } from '../../src/store/index.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { explorerCard } from './card.js';
import { deliveryPort, salePort, type Stage } from './card-host.js';
import { HostModel } from './host-model.js';
import { pixPort, voidPort } from './void-host.js';
import { cnpBackend, cnpDelivery } from './cnp-host.js';
import { qrCodes, qrDelivery, routed } from './qr-host.js';
import { EXPLORER_MERCHANT, qrPollPort } from './terminal-qr-host.js';
import type { Chooser } from './search.js';
import { TEST_EXPIRY_KEY } from '../helpers/store.js';

/** The engine's settings in every timeline: the daemon's defaults, and the model's lag as the window. */
export const SETTINGS = {
  /** How late the query host may show what it took, after the close of its day (an assumption: see host-model.ts). */
  lagMs: 10 * 60_000,
  /** The daemon's: twice the client's default timeout (src/main.ts). */
  processingWindowMs: 2 * 30_000,
  closeMarginMs: 5 * 60_000,
  ecrDecisionMs: 10 * 60_000,
  /** How long the terminal shows a wallet QR code. */
  qrValidityMs: 2 * 60_000,
  /** How long the terminal shows a Pix code. */
  pixValidityMs: 5 * 60_000,
} as const;

const silent = createLogger({ level: 'silent' });

/** The supervisor's token for the explorer's voids (a test value, at least 32 characters). */
export const SUPERVISOR = 'explorer-supervisor-token-0123456789';
const receipt: ReceiptPort = { print: () => Promise.resolve('printed') };

/**
 * A template database with every migration, written into each timeline's folder (a real SQLite file each
 * time). The template is kept in memory, its folder removed at once: a run that is killed leaves nothing of it.
 */
let template: Map<string, Buffer> | undefined;
function migratedFiles(root: string): Map<string, Buffer> {
  const dir = fs.mkdtempSync(path.join(root, 'omnipos-explorer-template-'));
  try {
    openTerminalDatabase(dir).close();
    return new Map(fs.readdirSync(dir).map((f) => [f, fs.readFileSync(path.join(dir, f))]));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
function freshStateDir(): string {
  const root = fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();
  template ??= migratedFiles(root);
  const dir = fs.mkdtempSync(path.join(root, 'omnipos-explorer-'));
  for (const [f, bytes] of template) fs.writeFileSync(path.join(dir, f), bytes);
  return dir;
}

/** The alarms and final states the invariants read, with when they happened. */
export interface Happened {
  alarms: { id: number; code: string; at: number }[];
  /** Journal ids the cash register was told `confirmed` (or `confirming`, which it reads as confirmed). */
  toldConfirmed: Set<number>;
}

/**
 * One timeline's terminal: a real SQLite journal in a fresh directory, the real engines and outbox
 * forwarder on a fake clock, talking to the host model. `restart` is a SIGKILL: the engines are
 * dropped mid-flight (a call out never returns), the database is closed and opened again, and the
 * engines' recovery runs on what the journal holds.
 */
export class World implements Stage {
  readonly dir = freshStateDir();
  readonly clock: FakeClock;
  readonly host: HostModel;
  readonly story: string[] = [];
  readonly happened: Happened = { alarms: [], toldConfirmed: new Set() };
  db!: Db;
  journal!: Journal;
  outbox!: Outbox;
  sales!: SaleEngine;
  voids!: VoidEngine;
  pix!: PixEngine;
  qr!: QrEngine;
  cnp!: CnpEngine;
  forwarder!: OutboxForwarder;
  /** The merchant's day (its report and close, `POST /v1/day/close`), on the same journal. */
  day!: DayBook;
  /** The merchant may close the day between two steps (the operations that explore the close). */
  dayCloses = false;
  /** The business days the merchant closed in this timeline. */
  readonly closedDays: string[] = [];
  /** Resolves when the terminal is killed (the current call out never returns). */
  killed!: Promise<'killed'>;
  #kill!: () => void;
  #dead = false;
  restarts = 0;

  /** Who makes the wallet QR codes (`qr.provider`): the e-commerce host (default) or the terminal itself. */
  readonly qrProvider: 'ecommerce' | 'terminal';
  /** The Pix payer pays when the timeline chooses (the Pix charge family); else at the first look (the refund family). */
  readonly pixPaidByChoice: boolean;

  constructor(
    readonly chooser: Chooser,
    startIso: string,
    options: { qrProvider?: 'ecommerce' | 'terminal'; pixPaidByChoice?: boolean } = {},
  ) {
    this.qrProvider = options.qrProvider ?? 'ecommerce';
    this.pixPaidByChoice = options.pixPaidByChoice ?? false;
    this.clock = new FakeClock(startIso);
    this.host = new HostModel(SETTINGS.lagMs, this.clock.now().getTime());
    this.boot();
  }

  now(): number {
    return this.clock.now().getTime();
  }

  /** Choice points whose option is set, not explored (the sale before the void under study). */
  readonly pinned = new Map<string, string>();

  choose<T extends string>(label: string, options: readonly T[]): T {
    const pin = [...this.pinned].find(([prefix]) => label.startsWith(prefix))?.[1];
    if (pin !== undefined && options.includes(pin as T)) return pin as T;
    return this.chooser.choose(label, options, () => this.fingerprint());
  }

  say(line: string): void {
    this.story.push(`${this.clock.now().toISOString().slice(5, 19)} ${line}`);
  }

  kill(): Promise<never> {
    this.say('SIGKILL: the terminal dies with this call out');
    this.#dead = true;
    this.#kill();
    return new Promise<never>(() => undefined);
  }

  get dead(): boolean {
    return this.#dead;
  }

  #event(e: { type: string; id: number; code?: string; state?: string }): void {
    if (e.type === 'alarm' && e.code) {
      this.happened.alarms.push({ id: e.id, code: e.code, at: this.now() });
      this.say(`  alarm ${e.code} (journal ${e.id})`);
    }
    if (e.type === 'state' && (e.state === 'confirming' || e.state === 'confirmed'))
      this.happened.toldConfirmed.add(e.id);
    if (e.type === 'state' && e.state) this.say(`  journal ${e.id} → ${e.state}`);
  }

  boot(): void {
    this.#dead = false;
    this.killed = new Promise((resolve) => (this.#kill = () => resolve('killed')));
    this.db = openTerminalDatabase(this.dir);
    this.journal = new Journal(this.db);
    this.outbox = new Outbox(this.db);
    const clock = this.clock;
    const deps = {
      db: this.db,
      journal: this.journal,
      outbox: this.outbox,
      clock,
      log: silent,
      attended: true,
      ecrDecisionMs: SETTINGS.ecrDecisionMs,
      closeMarginMs: SETTINGS.closeMarginMs,
      receipt,
    };
    const orderIds = new MerchantOrderIds(this.db, { ordinal: 1, clock, wait: clock.wait });
    const onEvent = (e: { type: string; id: number; code?: string; state?: string }): void => this.#event(e);
    const lock = new PaymentLock();
    const card = explorerCard(this);
    this.sales = new SaleEngine({
      expiryKey: TEST_EXPIRY_KEY,
      ...deps,
      lock,
      orderIds,
      card,
      host: salePort(this),
      onEvent,
    });
    const voids = voidPort(this);
    this.voids = new VoidEngine({
      expiryKey: TEST_EXPIRY_KEY,
      ...deps,
      lock,
      orderIds,
      card,
      host: voids,
      supervisor: new SupervisorGate({ token: SUPERVISOR, passwordHash: () => undefined }),
      tables: () => undefined,
      pixRefunds: true,
      // Wallet QR voids: the cancellation code shown as long as the terminal's QR codes, watched a minute more.
      wallet: { host: walletPort(this), validityMs: SETTINGS.qrValidityMs, watchMarginMs: 60_000, pollMs: 2 },
      onEvent,
    });
    const pix = pixPort(this, { paidByChoice: this.pixPaidByChoice });
    this.pix = new PixEngine({
      ...deps,
      lock,
      orderIds,
      host: pix,
      validityMs: SETTINGS.pixValidityMs,
      watchMarginMs: 60_000,
      pollMs: 0,
      onEvent,
    });
    const qr = qrDelivery(this);
    const terminalCodes = this.qrProvider === 'terminal';
    this.qr = new QrEngine({
      ...deps,
      lock,
      orderIds,
      // The terminal's codes: their sale lives on the terminal API (the card's port, through `routed`).
      host: terminalCodes ? qrPollPort(this) : qr,
      ...(terminalCodes ? { merchant: EXPLORER_MERCHANT } : { codes: qrCodes(this) }),
      validityMs: SETTINGS.qrValidityMs,
      watchMarginMs: 60_000,
      pollMs: 2,
      onEvent,
    });
    this.cnp = new CnpEngine({ ...deps, lock, orderIds, host: cnpBackend(this), onEvent });
    const owners: Record<string, { settled: SaleEngine['settled'] } | undefined> = {
      sale: this.sales,
      void: this.voids,
      pix: this.pix,
      qr: this.qr,
      cnp: this.cnp,
    };
    this.day = new DayBook({ db: this.db, journal: this.journal, clock, log: silent, environment: 'explorer' });
    this.forwarder = new OutboxForwarder({
      db: this.db,
      outbox: this.outbox,
      port: routed(deliveryPort(this), qr, this),
      pix,
      voids,
      wallet: walletPort(this),
      cnp: cnpDelivery(this),
      clock,
      log: silent,
      random: () => 0.5,
      undoRace: { processingWindowMs: SETTINGS.processingWindowMs, closeMarginMs: SETTINGS.closeMarginMs },
      onSettled: (task, delivery) => {
        const kind = this.journal.get(task.journalId ?? -1)?.kind;
        if (kind) owners[kind]?.settled(task, delivery);
      },
      onAlarm: (a) => this.#event({ type: 'alarm', id: a.journalId ?? -1, code: a.code }),
    });
  }

  /** SIGKILL and start again: the journal is re-opened from its file and every engine recovers. */
  restart(): void {
    this.restarts++;
    this.say('restart: the journal is opened again and recovery runs');
    this.#stop();
    this.db.close();
    this.boot();
    this.sales.recover();
    this.pix.recover();
    this.qr.recover();
    this.voids.recover();
    this.cnp.recover();
  }

  /** The merchant closes today's business day (host time), as `POST /v1/day/close` does. */
  async closeDay(): Promise<void> {
    const closed = await this.day.close(undefined, { print: false });
    this.closedDays.push(closed.date);
    this.say(
      `the merchant closes the day ${closed.date}: net ${closed.report.totals.net}, ${closed.report.counts.inProgress} in progress`,
    );
  }

  /** Runs `work` unless the terminal dies meanwhile; a death restarts it. */
  async survive(work: Promise<unknown>): Promise<void> {
    const r = await Promise.race([work.then(() => 'done' as const), this.killed]);
    if (r === 'killed') this.restart();
  }

  entries(): JournalEntry[] {
    return this.journal.list({ limit: 100 });
  }

  /** What the state of the timeline is, for deduplication: journal, outbox, host, the merchant's day, and where the clock stands. */
  fingerprint(): string {
    const now = this.now();
    const close = closeAfter(this.now());
    const rows = this.journal ? this.entries().map((e) => `${e.kind}:${e.state}:${stable(e.data)}`) : [];
    const tasks = this.outbox
      ? this.outbox.open().map((t) => `${t.operation}:${stable(t.payload)}:${taskPhase(t.payload, now)}`)
      : [];
    const phase = close - now <= SETTINGS.closeMarginMs ? 'margin' : 'day';
    const day = this.closedDays.length > 0 ? 'day-closed' : '';
    return [rows.join(','), tasks.join(','), this.host.fingerprint(now), phase, day, this.#dead ? 'dead' : ''].join(
      '|',
    );
  }

  #stop(): void {
    this.sales.stop();
    this.pix.stop();
    this.qr.stop();
    this.voids.stop();
    this.cnp.stop();
  }

  dispose(): void {
    this.#stop();
    try {
      this.db.close();
    } catch {
      // already closed
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Where the clock stands for a task: before its day's margin, in it, past the close, past the close and the lag; inside the window from its sending. */
function taskPhase(payload: Record<string, unknown>, now: number): string {
  const sent = typeof payload.sentAt === 'string' ? Date.parse(payload.sentAt) : NaN;
  if (Number.isNaN(sent)) return '-';
  const close = closeAfter(sent);
  const phase =
    now < close - SETTINGS.closeMarginMs
      ? 'racing'
      : now < close
        ? 'margin'
        : now < close + SETTINGS.lagMs
          ? 'past'
          : 'past-lag';
  return `${phase}${now - sent < SETTINGS.processingWindowMs ? '-window' : ''}`;
}

/**
 * JSON without the times (sentAt, deadlines) and the counters of looks that only bound a wait
 * (`refundWaits`, `queryFailures`, `refundAsking`'s time): what decides, not when nor how often. A
 * wait's retries are then one step, and the step that hits the bound (a dead letter) shows as a change.
 */
function stable(data: Record<string, unknown>): string {
  const { sentAt: _s, deadline: _d, refundWaits: _w, queryFailures: _q, ...rest } = data;
  if (typeof rest.refundAsking === 'string') rest.refundAsking = 'yes';
  return JSON.stringify(rest);
}
