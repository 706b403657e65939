import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { Agent } from 'undici';
import {
  fromDriverError,
  loadPinpadKey,
  openPinpadSession,
  PinpadTablesAdapter,
  type GixResult,
  type SecurePinpad,
} from '../adapters/index.js';
import { loadConfig, type Config } from '../config/index.js';
import type { AcquirerProvisioning } from '../engine/index.js';
import { systemClock } from '../core/index.js';
import { createLogger, type Logger } from '../core/log/index.js';
import {
  InitializationStore,
  initialize,
  type InitStep,
  type PinpadLoadPlan,
  type PinpadTables,
} from '../initialization/index.js';
import type { RunningSandbox } from '../sandbox/index.js';
import { openTerminalDatabase } from '../store/index.js';
import { printJson, type CliContext, type Command } from './context.js';
import { createProgress } from './progress.js';
import { startEmbeddedSandbox } from './embedded-sandbox.js';
import { technicalFacts, technicalGixIds } from './init-technical.js';
import { restoreVirtualTables, saveVirtualTables } from './init-virtual-memory.js';
import { resolveTarget, type Target } from './pinpad.js';
import { version } from './version.js';
import { acquirerProvisioning } from '../factory/index.js';

/** The log of a technician's run: the state directory's log file, never the screen. (Root logger: components take one child of it each.) */
function initLogger(config: Config): Logger {
  const dir = path.join(config.values.stateDir, 'logs');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return createLogger({
    level: config.values.log.level,
    destination: pino.destination({ dest: path.join(dir, 'omnipos.log'), append: true, sync: true }),
  });
}

/** The pinpad to initialize: the configured device; the embedded virtual one starts here with its table memory. */
function pinpadTarget(config: Config, values: { config?: string }, ctx: CliContext): Promise<Target> {
  return resolveTarget(values, ctx, {
    beforeVirtualStart: (virtual) => void restoreVirtualTables(virtual, config.values.stateDir),
  });
}

/** What `omnipos init --json` prints. */
export interface InitReport {
  version: string;
  installed: boolean;
  previousVersion: string | undefined;
  pinpad: 'loaded' | 'up-to-date' | 'no-records';
  pinpadTableVersion: string | undefined;
  pinpadDevice: string;
  /** The technical parameters as the acquirer received them, in its own fields. */
  technical: Readonly<Record<string, string>>;
}

const STEP_TEXT: Record<Exclude<InitStep, 'download'>, string> = {
  validate: 'validate: every table against its schema',
  store: 'store: writing beside the version in force',
  pinpad: 'pinpad: comparing the table version the pinpad holds',
};

export const init: Command = {
  path: ['init'],
  summary: 'initialize the terminal (technicians): technical parameters, tables, pinpad load',
  usage: `omnipos init [--config PATH] [--json]

Initializes the terminal, one line per step: reads the pinpad's information (GIX), sends it as the
technical parameters with the acquirer's initialization request (omni: POST /initialization),
downloads the initialization tables, validates
them, stores them beside the version in force and switches in one transaction, then loads the
pinpad's AID and CA key tables (TLI, TLR…, TLE) unless it already holds that version. Safe to
interrupt at any point and to run again: an interrupted run leaves the previous tables in force on
the terminal and on the pinpad. With the sandbox configuration it starts the embedded sandbox host
and the virtual pinpad itself and stops them at the end. --json prints the result as one object.
Exit 0 on success; otherwise the error catalogue's exit code (3: the acquirer or the pinpad is
unavailable, 2: the configuration is wrong).

Example:
  omnipos init
  omnipos init --json > init-report.json`,
  async run(args, ctx) {
    const { values } = parseArgs({
      args,
      options: { config: { type: 'string' }, json: { type: 'boolean' } },
      strict: true,
    });
    const config = loadConfig({ ...(values.config ? { path: values.config } : {}), env: ctx.env });
    const v = config.values;
    // A bar on a terminal, plain lines otherwise, nothing with --json (its one object is unchanged).
    const progress = createProgress({
      write: (t) => ctx.out(t),
      tty: ctx.tty === true,
      ...(ctx.columns ? { columns: ctx.columns } : {}),
      quiet: values.json === true,
    });
    const step = (text: string): void => progress.step(text);
    const log = initLogger(config);
    const db = openTerminalDatabase(v.stateDir, log.child({ component: 'store' }));
    const store = new InitializationStore(db, systemClock);
    let sandbox: RunningSandbox | undefined;
    let dispatcher: Agent | undefined;
    let acquirer: AcquirerProvisioning | undefined;
    let target: Target | undefined;
    let pinpad: SecurePinpad | undefined;
    try {
      step(
        `configuration ${config.source} (${v.environment}), terminal ${v.terminal.terminalId}, state in ${v.stateDir}`,
      );
      const before = store.currentVersion();
      step(`tables in force: ${before ?? 'none'}`);
      sandbox = await startEmbeddedSandbox(config, log);
      if (sandbox) step(`embedded sandbox host at ${sandbox.url}`);
      target = await pinpadTarget(config, values, ctx);
      const opened = target;
      pinpad = await openPinpadSession(target, loadPinpadKey(v.stateDir).key, log.child({ component: 'pinpad' }));
      let gix: GixResult;
      try {
        gix = await pinpad.gix(technicalGixIds());
      } catch (e) {
        throw fromDriverError(e);
      }
      const facts = technicalFacts(gix, version());
      const fact = (f: string | undefined): string => f ?? '?';
      step(
        `pinpad ${target.description}: ${fact(facts.manufacturer)} ${fact(facts.model)}, serial ${fact(facts.serialNumber)}, firmware ${fact(facts.firmware)}, spec ${fact(facts.specificationVersion)}, EMV kernel ${fact(facts.emvKernel)}, ${facts.contactless ? 'chip and contactless' : 'chip'}`,
      );

      dispatcher = new Agent({ keepAliveTimeout: 10_000 });
      acquirer = acquirerProvisioning(config, { sandbox, clock: systemClock, log, dispatcher });
      const initialization = acquirer.initialization({
        merchantId: v.terminal.subordinatedMerchantId,
        terminalId: v.terminal.terminalId,
        facts,
      });
      const tablesPort = new PinpadTablesAdapter(pinpad);
      let loaded: PinpadLoadPlan | undefined;
      const pinpadTables: PinpadTables = {
        tableVersion: async (acq) => {
          try {
            return await tablesPort.tableVersion(acq);
          } catch (e) {
            throw fromDriverError(e);
          }
        },
        load: async (plan) => {
          step(
            `pinpad: loading table version ${plan.tableVersion} (network ${plan.acquirerIndex}, ${plan.tlr.length} TLR commands)`,
          );
          try {
            await tablesPort.load(plan, (done, total) =>
              progress.update(`pinpad: TLR records loaded (network ${plan.acquirerIndex})`, done, total),
            );
          } catch (e) {
            throw fromDriverError(e);
          }
          loaded = plan;
          if (opened.virtual) saveVirtualTables(v.stateDir, plan);
        },
      };
      const result = await initialize({
        source: initialization.source,
        store,
        pinpad: pinpadTables,
        log,
        onStep: (s, detail) => {
          if (s === 'download') return step(`download: ${initialization.request} with the technical parameters`);
          if (s !== 'store') return step(STEP_TEXT[s]);
          if (detail?.done === 0) step(STEP_TEXT.store);
          // On a terminal a bar; otherwise a line at each quarter of the BIN rows written.
          if (detail) progress.update('store: BIN ranges written', detail.done, detail.total);
        },
      });
      step(
        result.installed
          ? `tables version ${result.version} in force (previous: ${before ?? 'none'})`
          : `tables version ${result.version} is current: nothing to store`,
      );
      const pinpadVersion = store.pinpadTableVersion();
      if (result.pinpad === 'loaded')
        step(`pinpad: table version ${loaded?.tableVersion ?? pinpadVersion ?? '?'} loaded`);
      else if (result.pinpad === 'up-to-date')
        step(`pinpad: already holds table version ${pinpadVersion ?? '?'}: load skipped`);
      else step('pinpad: the tables carry no AID or CA key records: nothing to load');
      progress.end();
      step('initialization complete');
      if (values.json) {
        const report: InitReport = {
          version: result.version,
          installed: result.installed,
          previousVersion: before,
          pinpad: result.pinpad === 'no-pinpad' ? 'no-records' : result.pinpad,
          pinpadTableVersion: pinpadVersion,
          pinpadDevice: target.description,
          technical: initialization.sent,
        };
        printJson(ctx, report);
      }
      log.info({ version: result.version, installed: result.installed, pinpad: result.pinpad }, 'omnipos init done');
      return 0;
    } finally {
      await pinpad?.close().catch(() => undefined);
      await target?.stop();
      await acquirer?.close();
      await dispatcher?.close();
      await sandbox?.close();
      db.close();
    }
  },
};
