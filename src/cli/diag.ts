import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, type Config } from '../config/index.js';
import { isOmniposError, systemClock } from '../core/index.js';
import { createLogger } from '../core/log/index.js';
import { acquirerProbe } from '../factory/index.js';
import { readInUse } from '../factory/index.js';
import { InitializationStore } from '../initialization/index.js';
import { DAMAGE_MARKER, Outbox, openTerminalDatabase, readDamage, type DamageRecord } from '../store/index.js';
import { printJson, type CliContext, type Command } from './context.js';
import { callApi, daemonApi, isNotListening, text as fieldText } from './daemon-api.js';
import { pinpadInfo, pinpadPorts } from './pinpad.js';
import { printerStatus } from './printer.js';

/** What `omnipos diag --json` prints. Each part says where it came from. */
export interface DiagReport {
  status: 'ok' | 'degraded';
  problems: string[];
  /** `daemon`: the running daemon's /v1/health; `probe`: this command opened the devices itself. */
  source: 'daemon' | 'probe';
  daemon: { url: string; running: boolean };
  devices: {
    kind: string;
    path: string;
    vendorId?: number;
    productId?: number;
    manufacturer?: string;
    aliases?: string[];
    pinpad: string | null;
    /** Why it cannot be opened (a pinpad on USB with no serial port). */
    unusable?: string;
  }[];
  pinpad: Record<string, unknown> | null;
  /** The configured DUKPT slots and whether the pinpad holds a key there (null while the daemon holds the pinpad). */
  keys: {
    pinKeySlot: number;
    pinKeyPresent: boolean | null;
    dataKeySlot: number;
    dataKeyPresent: boolean | null;
    pinKsn?: string;
    readAt?: string;
    note?: string;
  };
  printer: Record<string, unknown> | null;
  acquirer: { url: string; reachable: boolean; httpStatus?: number; error?: string; note?: string };
  /** The acquirer's `Date` header against this machine's clock (positive: the acquirer is ahead). */
  clock: { local: string; acquirerDate: string | null; offsetMs: number | null; daemonOffsetMs?: number | null };
  tables: { version: string | null };
  outbox: { pending: number; deadLetters: number; oldestDeadline: string | null } | null;
  /** The database: sound, or found damaged and kept aside (the daemon then refuses to start and sell). */
  database:
    { damaged: false } | { damaged: true; at: string; reason: string; keptIn: string; marker: string; todo: string[] };
}

/** What a technician does about a damaged database, in order. */
function damageTodo(stateDir: string, damage: DamageRecord): string[] {
  const marker = path.join(stateDir, DAMAGE_MARKER);
  return [
    `omnipos queue list reads what the damaged file still had to deliver (confirmations, undos) from ${damage.keptIn}`,
    'settle those sales with the acquirer (support: omnipos support bundle, the kept folder)',
    `then remove ${marker} and restart omnipos: it starts a new, empty journal (the kept folder stays for support)`,
  ];
}

/** Runs another command in this process with `--json` and returns what it printed, or the error it raised. */
async function jsonOf(
  command: Command,
  args: string[],
  ctx: CliContext,
): Promise<{ ok: true; value: unknown; code: number } | { ok: false; error: string }> {
  let out = '';
  let err = '';
  try {
    const code = await command.run([...args, '--json'], {
      out: (t) => (out += t),
      err: (t) => (err += t),
      env: ctx.env,
    });
    return { ok: true, value: JSON.parse(out) as unknown, code };
  } catch (e) {
    return { ok: false, error: isOmniposError(e) ? `${e.message} [${e.code}]` : err || (e as Error).message };
  }
}

/**
 * Asks the configured acquirer kind's probe (the daemon's: the omni one asks for a transactional
 * token, never a business request), on clients of its own and through this state directory's
 * sandbox when one listens: an HTTP answer below 500 means reachable (a refusal still proves the host
 * is there); the answer's `Date` header gives the clock offset.
 */
async function probeAcquirer(
  config: Config,
): Promise<{ acquirer: DiagReport['acquirer']; clock: DiagReport['clock'] }> {
  const local = new Date();
  let date: Date | undefined;
  const log = createLogger({ level: 'silent' });
  const sandbox = readInUse(path.join(config.values.stateDir, 'sandbox'));
  const probe = acquirerProbe(config, { sandbox, clock: systemClock, log, onHostDate: (d) => (date = d) });
  const url = probe.where;
  const clockOf = (): DiagReport['clock'] => {
    const mid = new Date((local.getTime() + Date.now()) / 2);
    const ok = date !== undefined && !Number.isNaN(date.getTime());
    return {
      local: mid.toISOString(),
      acquirerDate: ok ? date!.toISOString() : null,
      offsetMs: ok ? date!.getTime() - mid.getTime() : null,
    };
  };
  try {
    const answer = await probe.ask(3000);
    if (answer.reachable) return { acquirer: { url, ...answer }, clock: clockOf() };
    const embedded = config.values.environment === 'sandbox' && config.values.sandbox.embedded;
    return {
      acquirer: {
        url,
        ...answer,
        ...(embedded ? { note: 'the embedded sandbox host runs inside the daemon: start the daemon to reach it' } : {}),
      },
      clock: clockOf(),
    };
  } finally {
    await probe.close();
  }
}

/** The tables in force and the outbox, read from the database (safe beside a running daemon: WAL). */
function storeParts(config: Config): { tables: DiagReport['tables']; outbox: DiagReport['outbox'] } {
  if (readDamage(config.values.stateDir)) return { tables: { version: null }, outbox: null };
  const db = openTerminalDatabase(config.values.stateDir);
  try {
    return {
      tables: { version: new InitializationStore(db, systemClock).currentVersion() ?? null },
      outbox: new Outbox(db).depth(),
    };
  } finally {
    db.close();
  }
}

function keyPresence(slots: unknown, slot: number): boolean | null {
  if (!slots || typeof slots !== 'object') return null;
  const entries = Object.entries(slots as Record<string, string>);
  const hit = entries.find(([k]) => Number(k) === slot);
  return hit ? hit[1] === 'present' : false;
}

/** The key slots as the daemon read them at start (`pinpad.keySlots` of /v1/health), for the configured slots. */
function daemonKeys(slots: unknown, pinKeySlot: number, dataKeySlot: number): DiagReport['keys'] {
  const k = slots as
    | {
        readAt?: string | null;
        error?: string | null;
        pin?: Record<string, { present?: boolean; ksn?: string | null }> | null;
        data?: Record<string, { present?: boolean }> | null;
      }
    | null
    | undefined;
  const slot = (n: number): string => String(n).padStart(2, '0');
  if (!k || !k.readAt) {
    const why = k?.error
      ? `the daemon could not read them (${k.error})`
      : 'the daemon has not read them yet (the pinpad was not connected)';
    return { pinKeySlot, pinKeyPresent: null, dataKeySlot, dataKeyPresent: null, note: why };
  }
  const pin = k.pin?.[slot(pinKeySlot)];
  const data = k.data?.[slot(dataKeySlot)];
  return {
    pinKeySlot,
    pinKeyPresent: pin ? pin.present === true : k.pin ? false : null,
    dataKeySlot,
    dataKeyPresent: data ? data.present === true : k.data ? false : null,
    ...(pin?.ksn ? { pinKsn: pin.ksn } : {}),
    readAt: k.readAt,
  };
}

/** Collects the report: from the daemon when one answers, else by probing each part directly. */
export async function diagnose(config: Config, configArgs: string[], ctx: CliContext): Promise<DiagReport> {
  const v = config.values;
  const api = daemonApi(config);
  let health: Record<string, unknown> | undefined;
  try {
    const h = await callApi(api, 'GET', '/v1/health');
    if (h.status === 200) health = h.body;
  } catch (e) {
    if (!isNotListening(e)) throw e;
  } finally {
    await api.close();
  }
  const ports = await jsonOf(pinpadPorts, [], ctx);
  const devices = ports.ok ? (ports.value as DiagReport['devices']) : [];
  const { acquirer, clock } = await probeAcquirer(config);
  const problems: string[] = [];
  const damage = readDamage(v.stateDir);
  const database: DiagReport['database'] = damage
    ? {
        damaged: true,
        at: damage.at,
        reason: damage.reason,
        keptIn: damage.keptIn,
        marker: path.join(v.stateDir, DAMAGE_MARKER),
        todo: damageTodo(v.stateDir, damage),
      }
    : { damaged: false };
  if (damage)
    problems.push(`database: damaged (${damage.reason}) at ${damage.at}, kept in ${damage.keptIn}; nothing is sold`);
  let report: DiagReport;
  if (health) {
    const pinpad = health.pinpad as Record<string, unknown> | null;
    report = {
      status: 'ok',
      problems,
      source: 'daemon',
      daemon: { url: api.url, running: true },
      devices,
      pinpad: pinpad ? { device: v.pinpad.device.kind, ...pinpad } : null,
      keys: daemonKeys(pinpad?.keySlots, v.pinpad.pinKeySlot, v.pinpad.dataKeySlot),
      printer: health.printer as Record<string, unknown> | null,
      acquirer,
      clock: { ...clock, daemonOffsetMs: (health.clock as { hostOffsetMs?: number } | null)?.hostOffsetMs ?? null },
      tables: health.tables as DiagReport['tables'],
      outbox: health.outbox as DiagReport['outbox'],
      database,
    };
    for (const p of (health.problems as string[] | undefined) ?? []) problems.push(p);
  } else {
    const info = await jsonOf(pinpadInfo, configArgs, ctx);
    const printer = v.printer.kind === 'none' ? undefined : await jsonOf(printerStatus, configArgs, ctx);
    const value = info.ok ? (info.value as Record<string, unknown>) : undefined;
    const keys = value?.keys as { dukptPin?: unknown; dukptData?: unknown } | undefined;
    report = {
      status: 'ok',
      problems,
      source: 'probe',
      daemon: { url: api.url, running: false },
      devices,
      pinpad: info.ok
        ? { connected: true, ...value }
        : { connected: false, device: v.pinpad.device.kind, error: info.error },
      keys: {
        pinKeySlot: v.pinpad.pinKeySlot,
        pinKeyPresent: keyPresence(keys?.dukptPin, v.pinpad.pinKeySlot),
        dataKeySlot: v.pinpad.dataKeySlot,
        dataKeyPresent: keyPresence(keys?.dukptData, v.pinpad.dataKeySlot),
      },
      printer:
        printer === undefined
          ? null
          : printer.ok
            ? (printer.value as Record<string, unknown>)
            : { kind: v.printer.kind, reachable: false, error: printer.error },
      acquirer,
      clock,
      ...storeParts(config),
      database,
    };
    if (!info.ok) problems.push(`pinpad: ${info.error}`);
    else if (value?.secure !== true) problems.push('pinpad: no secure session');
    if (report.keys.pinKeyPresent === false) problems.push(`pinpad: no DUKPT PIN key in slot ${v.pinpad.pinKeySlot}`);
    if (report.keys.dataKeyPresent === false)
      problems.push(`pinpad: no DUKPT data key in slot ${v.pinpad.dataKeySlot}`);
    if (printer && (!printer.ok || (printer.value as { condition?: string }).condition !== 'idle'))
      problems.push(
        `printer: ${printer.ok ? String((printer.value as { condition?: string }).condition) : printer.error}`,
      );
    if ((report.outbox?.deadLetters ?? 0) > 0) problems.push(`outbox: ${report.outbox?.deadLetters} dead letters`);
  }
  if (!acquirer.reachable && !problems.some((p) => p.startsWith('acquirer')))
    problems.push(`acquirer: unreachable at ${acquirer.url} (${acquirer.error ?? '?'})`);
  if (clock.offsetMs !== null && Math.abs(clock.offsetMs) > 5 * 60_000)
    problems.push(`clock: ${Math.round(clock.offsetMs / 1000)} s from the acquirer's`);
  report.status = problems.length ? 'degraded' : 'ok';
  return report;
}

const yesNo = (b: boolean | null | undefined): string => (b === null || b === undefined ? '?' : b ? 'yes' : 'no');

function text(r: DiagReport): string {
  const lines: [string, string][] = [];
  lines.push(['status', `${r.status}${r.problems.length ? `: ${r.problems.join('; ')}` : ''}`]);
  lines.push([
    'source',
    r.source === 'daemon' ? `the running daemon at ${r.daemon.url}` : `probed directly (no daemon at ${r.daemon.url})`,
  ]);
  lines.push([
    'devices',
    r.devices.length
      ? r.devices
          .map((d) => `${d.path}${d.pinpad ? ` (pinpad: ${d.pinpad}${d.unusable ? ', no serial port' : ''})` : ''}`)
          .join(', ')
      : 'no serial ports',
  ]);
  const p = r.pinpad;
  lines.push([
    'pinpad',
    p
      ? `${fieldText(p.device, '')} connected ${yesNo(p.connected as boolean)}, recognition ${fieldText(p.recognition, '?')}, secure session ${yesNo(p.secure as boolean)}${p.model ? `, ${fieldText(p.manufacturer)} ${fieldText(p.model)} serial ${fieldText(p.serialNumber)}` : ''}${p.error ? ` (${fieldText(p.error)})` : ''}`
      : 'none configured',
  ]);
  lines.push([
    'key slots',
    r.keys.note
      ? `PIN ${r.keys.pinKeySlot}, data ${r.keys.dataKeySlot}: ${r.keys.note}`
      : `PIN key in slot ${r.keys.pinKeySlot}: ${yesNo(r.keys.pinKeyPresent)}${r.keys.pinKsn ? ` (KSN ${fieldText(r.keys.pinKsn)})` : ''}; data key in slot ${r.keys.dataKeySlot}: ${yesNo(r.keys.dataKeyPresent)}${r.keys.readAt ? `; read by the daemon at ${r.keys.readAt}` : ''}`,
  ]);
  const pr = r.printer;
  lines.push([
    'printer',
    pr
      ? pr.error
        ? `${fieldText(pr.kind, '')} ${fieldText(pr.error)}`
        : `${String(pr.printer ?? pr.kind)} ${pr.condition ? fieldText(pr.condition) : `reachable ${yesNo(pr.reachable as boolean | null)}, paper out ${yesNo(pr.paperOut as boolean | null)}, cover open ${yesNo(pr.coverOpen as boolean | null)}`}`
      : 'none configured',
  ]);
  lines.push([
    'acquirer',
    r.acquirer.reachable
      ? `reachable at ${r.acquirer.url} (HTTP ${r.acquirer.httpStatus})`
      : `unreachable at ${r.acquirer.url} (${r.acquirer.error ?? '?'})${r.acquirer.note ? `: ${r.acquirer.note}` : ''}`,
  ]);
  lines.push([
    'clock',
    r.clock.offsetMs === null
      ? `local ${r.clock.local}; no Date header from the acquirer`
      : `the acquirer's Date header is ${(r.clock.offsetMs / 1000).toFixed(1)} s ${r.clock.offsetMs >= 0 ? 'ahead of' : 'behind'} this machine (header resolution 1 s)${r.clock.daemonOffsetMs !== undefined && r.clock.daemonOffsetMs !== null ? `; the daemon follows an offset of ${(r.clock.daemonOffsetMs / 1000).toFixed(1)} s` : ''}`,
  ]);
  lines.push(['tables', r.tables.version ?? 'none in force (run `omnipos init`)']);
  if (r.database.damaged)
    lines.push([
      'database',
      `DAMAGED at ${r.database.at}: ${r.database.reason}; kept in ${r.database.keptIn}. To do: ${r.database.todo.map((t, i) => `(${i + 1}) ${t}`).join('; ')}`,
    ]);
  lines.push([
    'outbox',
    r.outbox
      ? `${r.outbox.pending} pending, ${r.outbox.deadLetters} dead letters${r.outbox.oldestDeadline ? `, oldest deadline ${r.outbox.oldestDeadline}` : ''}`
      : '?',
  ]);
  return lines.map(([k, val]) => `${k.padEnd(10)} ${val}`).join('\n') + '\n';
}

export const diag: Command = {
  path: ['diag'],
  summary: 'check devices, pinpad recognition and key slots, printer, acquirer, clock, tables and outbox',
  usage: `omnipos diag [--json] [--config PATH]

One line per part a technician checks: the serial ports found (and which look like pinpads, and any
pinpad on USB with no serial port), the pinpad's recognition and secure session, the DUKPT key slots
the configuration names and whether the pinpad holds keys there, the printer's status, whether the acquirer answers
and how far its Date header is from this machine's clock, the initialization tables in force and
the outbox. When a daemon runs, the pinpad, printer, tables and outbox come from its
GET /v1/health (the daemon holds the devices; it read the key slots when it first held the
pinpad); otherwise this command opens the pinpad and the printer itself. Sends no business request to the acquirer.

Example:
  omnipos diag
  omnipos diag --json | jq .keys

Exit codes: 0 every part is ready; 3 a part is not (the problems are listed); 2 bad configuration.`,
  async run(args, ctx) {
    const { values } = parseArgs({
      args,
      options: { json: { type: 'boolean', default: false }, config: { type: 'string' } },
      strict: true,
    });
    const config = loadConfig({ ...(values.config ? { path: values.config } : {}), env: ctx.env });
    const report = await diagnose(config, values.config ? ['--config', values.config] : [], ctx);
    if (values.json) printJson(ctx, report);
    else ctx.out(text(report));
    return report.status === 'ok' ? 0 : 3;
  },
};
