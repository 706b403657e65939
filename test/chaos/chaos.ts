/**
 * `npm run chaos -- --sales N [--seed S] [--kill-rate R] [--fault-rate F]`
 *
 * The daemon (`omnipos run`) as a child process, killed with SIGKILL at random points during N
 * sales driven through its API; the virtual pinpad (`omnipos sim pinpad`) as its own process that
 * survives every kill, the daemon reaching it over TCP and opening a new secure session each start; the strict sandbox host in this process injecting faults
 * (latency, 5xx, resets before and after recording, withheld answers) on the sale, confirm,
 * undo and query routes; restarts; then, with faults off, a clean start that settles the outbox,
 * and a reconciliation of the terminal's journal with the sandbox's ledger: every charge
 * confirmed exactly once or undone, nothing pending, nothing charged twice, no ledger problem,
 * and no card number in clear in the database or the logs. Sub-second timeouts throughout.
 * Exits 0 when everything reconciles, 1 otherwise.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { request } from 'undici';
import { createLogger } from '../../src/core/log/index.js';
import { nextDailyClose } from '../../src/engine/daily-close.js';
import { buildSandbox, listenSandbox, type LedgerReport, sandboxEnv } from '../../src/sandbox/index.js';
import { scanForCardData } from '../helpers/scan-card-data.js';

const { values } = parseArgs({
  options: {
    sales: { type: 'string', default: '50' },
    seed: { type: 'string', default: String(Date.now() % 1_000_000) },
    'kill-rate': { type: 'string', default: '0.25' },
    'fault-rate': { type: 'string', default: '0.3' },
  },
});
const SALES = Number(values.sales);
const KILL_RATE = Number(values['kill-rate']);
const FAULT_RATE = Number(values['fault-rate']);
let seed = Number(values.seed);
/** mulberry32: a seeded generator, so a failing run can be replayed with --seed. */
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

const started = Date.now();
const dir = mkdtempSync(path.join(tmpdir(), 'omnipos-chaos-'));
const stateDir = path.join(dir, 'terminal');
const sandbox = await listenSandbox(buildSandbox({ dbFile: path.join(dir, 'acquirer.db'), log: createLogger({ level: 'silent' }), withholdMs: 1500 }));
// The host as the manual shows it, drawn from the seed (issue 16): an answer dialect, a not-found
// shape, and a sale that may reach the query host only seconds after it was made.
const hostScenario = { dialect: pick(['pt', 'en'] as const), notFound: pick(['manual', '318', 'empty-list', 'payments-empty'] as const), visibilityDelayMs: pick([0, 0, 1000, 3000] as const) };
await (await request(`${sandbox.url}/sandbox/scenario`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(hostScenario) })).body.text();
const apiPort = await freePort();
const api = `http://127.0.0.1:${apiPort}`;

// The virtual pinpad in its own process: it outlives every daemon it serves.
const pinpad = spawn(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', 'sim', 'pinpad', '--tcp', '0', '--control', '0', '--typing-ms', '5'], {
  env: { ...process.env, OMNIPOS_CONFIG: '' },
  stdio: ['ignore', 'pipe', 'ignore'],
});
const { tcp: pinpadPort, control: controlPort } = await new Promise<{ tcp: number; control: number }>((resolve, reject) => {
  let out = '';
  pinpad.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
    const line = out.split('\n').find((l) => l.includes('"ready"'));
    if (line) resolve(JSON.parse(line) as { tcp: number; control: number });
  });
  pinpad.once('exit', (code) => reject(new Error(`the virtual pinpad exited at start (${code})`)));
});
pinpad.stdout.resume();

/** The customer at the virtual pinpad: which card, how it is presented, what PIN is typed. */
const control = connect(controlPort, '127.0.0.1');
await new Promise((r) => control.once('connect', r));
const controlAnswers: ((line: string) => void)[] = [];
let controlBuffer = '';
control.on('data', (chunk: Buffer) => {
  controlBuffer += chunk.toString('utf8');
  let nl;
  while ((nl = controlBuffer.indexOf('\n')) >= 0) {
    const line = controlBuffer.slice(0, nl);
    controlBuffer = controlBuffer.slice(nl + 1);
    controlAnswers.shift()?.(line);
  }
});
function customer(command: Record<string, unknown>): Promise<string> {
  return new Promise((resolve) => {
    controlAnswers.push(resolve);
    control.write(`${JSON.stringify(command)}\n`);
  });
}
const CREDIT_CARDS = [
  { name: 'sandbox card ending 0', via: 'chip' },
  { name: 'mastercard credit', via: 'contactless' },
  { name: 'mastercard credit', via: 'chip' },
  { name: 'elo credit', via: 'chip' },
  { name: 'amex credit', via: 'contactless' },
  { name: 'chip fails', via: 'chip' },
  { name: 'sandbox stripe card', via: 'stripe' },
] as const;
const DEBIT_CARDS = [
  { name: 'visa debit', via: 'chip' },
  { name: 'visa debit', via: 'contactless' },
] as const;
const PINPAD_FAULTS = [{ kind: 'delay', ms: 300 }, { kind: 'lost-ack' }, { kind: 'bad-crc' }, { kind: 'garbage' }] as const;
let pinpadFaults = 0;
const urls = sandboxEnv(sandbox);
const env = {
  ...process.env,
  OMNIPOS_CONFIG: '',
  OMNIPOS_STATE_DIR: stateDir,
  OMNIPOS_SANDBOX__EMBEDDED: 'false',
  OMNIPOS_API__PORT: String(apiPort),
  OMNIPOS_ACQUIRER__TIMEOUT_MS: '500',
  OMNIPOS_PAYMENTS__ECR_DECISION_SECONDS: '1',
  OMNIPOS_LOG__LEVEL: 'debug',
  OMNIPOS_PINPAD__DEVICE__KIND: 'tcp',
  OMNIPOS_PINPAD__DEVICE__HOST: '127.0.0.1',
  OMNIPOS_PINPAD__DEVICE__PORT: String(pinpadPort),
  ...urls,
};

let daemon: ChildProcess | undefined;
let token = '';
let kills = 0;
let restarts = 0;

async function startDaemon(): Promise<void> {
  daemon = spawn(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', 'run'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const child = daemon;
  // Up to a minute: a loaded machine starts Node slowly.
  for (let i = 0; i < 1200; i++) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the daemon exited at start (${child.exitCode ?? child.signalCode})`);
    try {
      token = readFileSync(path.join(stateDir, 'api-token'), 'utf8').trim();
      const r = await request(`${api}/v1/health`, { headers: { authorization: `Bearer ${token}` } });
      await r.body.text();
      if (r.statusCode === 200) return;
    } catch {
      /* not up yet */
    }
    await sleep(50);
  }
  throw new Error('the daemon did not start');
}

async function kill(d: ChildProcess | undefined = daemon): Promise<void> {
  if (!d || d.exitCode !== null || d.signalCode !== null) return;
  const exited = new Promise((r) => d.once('exit', r));
  d.kill('SIGKILL');
  await exited;
  kills++;
}

async function apiCall(method: 'GET' | 'POST', p: string, body?: unknown): Promise<{ status: number; body: any }> {
  const r = await request(`${api}${p}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
    headersTimeout: 5000,
    bodyTimeout: 5000,
  });
  const text = await r.body.text();
  return { status: r.statusCode, body: text ? JSON.parse(text) : undefined };
}

const FAULTS = [{ latencyMs: 700 }, { status: 503 }, { reset: 'before' }, { reset: 'after' }, { drop: true }] as const;
const ROUTES = ['saleCreate', 'saleConfirm', 'saleUndo', 'saleUndoByOrderId', 'saleGetByOrderId', 'omniToken'] as const;

async function fault(spec: Record<string, unknown> | null): Promise<void> {
  const r = await request(`${sandbox.url}/sandbox/faults`, {
    method: spec ? 'POST' : 'DELETE',
    headers: { 'content-type': 'application/json' },
    ...(spec ? { body: JSON.stringify(spec) } : {}),
  });
  await r.body.text();
}

await startDaemon();
let faults = 0;
for (let i = 0; i < SALES; i++) {
  if (random() < FAULT_RATE) {
    faults++;
    await fault({ route: pick(ROUTES), ...pick(FAULTS), times: 1 }).catch(() => undefined);
  }
  const confirmation = random() < 0.5 ? 'ecr' : 'auto';
  const method = random() < 0.75 ? 'credit' : 'debit';
  const card = pick<{ name: string; via: string }>(method === 'credit' ? CREDIT_CARDS : DEBIT_CARDS);
  await customer({ cmd: 'card', choice: { ...card, pin: random() < 0.05 ? '0000' : 'right' } });
  if (random() < 0.05) {
    pinpadFaults++;
    await customer({ cmd: 'fault', fault: pick(PINPAD_FAULTS) });
  }
  const amount = (10 + Math.floor(random() * 90)) * 100 + (random() < 0.85 ? 10 : 11);
  const killAfter = random() < KILL_RATE ? Math.floor(random() * 600) : undefined;
  // The kill aims at this daemon only, and is awaited whatever the sale did.
  const target = daemon;
  const killer = killAfter === undefined ? undefined : sleep(killAfter).then(() => kill(target));
  try {
    const created = await apiCall('POST', '/v1/payments', { amount, method, confirmation });
    if (created.status === 202 || created.status === 200) {
      for (let t = 0; t < 60; t++) {
        const s = await apiCall('GET', `/v1/payments/${created.body.id}`);
        if (s.body.status === 'approved') {
          const decision = pick(['confirm', 'undo', 'none']);
          if (decision !== 'none') await apiCall('POST', `/v1/payments/${created.body.id}/${decision}`);
          break;
        }
        if (!['pending'].includes(s.body.status)) break;
        await sleep(30);
      }
    }
  } catch {
    /* the daemon died under the request: that is the point */
  } finally {
    await killer;
  }
  if (daemon?.exitCode !== null || daemon.signalCode !== null) {
    await startDaemon();
    restarts++;
  }
}

// Faults off, one clean run until nothing is pending, then a clean stop.
await fault(null);
await kill();
await startDaemon();
for (let t = 0; t < 600; t++) {
  const h = await apiCall('GET', '/v1/health');
  const open = (await apiCall('GET', '/v1/payments?status=pending')).body.payments.length + (await apiCall('GET', '/v1/payments?status=approved')).body.payments.length;
  if (h.body.outbox.pending === 0 && open === 0) break;
  await sleep(100);
}
// A sale the host never recorded is never "nothing charged" before the close of its day (issue 17):
// its undo stays pending. The host's day ends (its clock moves past the close; the terminal's business
// clock follows the host's Date header), and the outbox settles those with a final query.
let closedDay = false;
if ((await apiCall('GET', '/v1/health')).body.outbox.pending > 0) {
  closedDay = true;
  const hostNow = ((await (await request(`${sandbox.url}/sandbox/clock`)).body.json()) as { now: string }).now;
  const target = new Date(nextDailyClose(new Date(hostNow)).getTime() + 60_000).toISOString();
  await request(`${sandbox.url}/sandbox/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ now: target }) });
  // The terminal's clock follows the host's only when it hears from it: a restart (its probe and first
  // requests) brings it past the close too; time then goes on at the host, ten minutes per round (the
  // outbox backs off up to 5 min between tries).
  for (let round = 0; round < 6; round++) {
    await kill();
    await startDaemon();
    for (let t = 0; t < 150; t++) {
      if ((await apiCall('GET', '/v1/health')).body.outbox.pending === 0) break;
      await sleep(100);
    }
    if ((await apiCall('GET', '/v1/health')).body.outbox.pending === 0) break;
    await request(`${sandbox.url}/sandbox/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advanceMs: 600_000 }) });
  }
}
const stopped = new Promise((r) => daemon?.once('exit', r));
daemon?.kill('SIGTERM');
await stopped;

// Reconciliation.
const ledger = (await (await request(`${sandbox.url}/sandbox/ledger`)).body.json()) as LedgerReport;
const db = new Database(path.join(stateDir, 'omnipos.db'), { readonly: true });
const journal = db.prepare('SELECT merchant_order_id AS id, state FROM journal').all() as { id: string; state: string }[];
db.close();
const problems: string[] = [];
const byOrder = new Map(journal.map((j) => [j.id, j.state]));
const states = new Map<string, number>();
for (const j of journal) states.set(j.state, (states.get(j.state) ?? 0) + 1);
for (const j of journal) {
  // needs-refund: an undo the host's close overtook, with its alarm (issue 17 allows it; counted in the figures).
  if (!['confirmed', 'undone', 'declined', 'aborted', 'failed', 'needs-refund'].includes(j.state)) problems.push(`journal ${j.id} is ${j.state}`);
}
const seen = new Map<string, number>();
for (const s of ledger.sales) seen.set(s.merchantOrderId, (seen.get(s.merchantOrderId) ?? 0) + 1);
for (const [id, n] of seen) if (n > 1) problems.push(`ledger has ${n} sales for ${id}`);
for (const s of ledger.sales) {
  const state = byOrder.get(s.merchantOrderId);
  if (s.charged > 0 && !((state === 'confirmed' || state === 'needs-refund') && s.confirmationStatus === 1)) problems.push(`${s.merchantOrderId} charged ${s.charged} but journal says ${state ?? 'nothing'} (ConfirmationStatus ${s.confirmationStatus})`);
  if (state === 'confirmed' && s.confirmationStatus !== 1) problems.push(`${s.merchantOrderId} confirmed in the journal, ConfirmationStatus ${s.confirmationStatus} at the host`);
  if (s.status === 2 && s.confirmationStatus === 0) problems.push(`${s.merchantOrderId} still pending at the host (journal: ${state ?? "nothing"}, status ${s.status})`);
}
for (const j of journal) if (j.state === 'confirmed' && !seen.has(j.id)) problems.push(`${j.id} confirmed in the journal, unknown to the host`);
for (const p of ledger.problems) problems.push(`ledger problem: ${p.kind} ${p.merchantOrderId ?? ''} ${p.detail}`);
for (const leak of scanForCardData(stateDir)) problems.push(`card data in clear: ${leak}`);
await sandbox.close();
control.end();
const pinpadExit = new Promise((r) => pinpad.once('exit', r));
pinpad.kill('SIGTERM');
await pinpadExit;
if (pinpad.exitCode !== 0) problems.push(`the virtual pinpad ended with ${pinpad.exitCode ?? pinpad.signalCode}`);

const seconds = ((Date.now() - started) / 1000).toFixed(1);
console.log(
  JSON.stringify(
    { sales: SALES, seed: values.seed, hostScenario, kills, restarts, faults, pinpadFaults, closedDay, journal: Object.fromEntries(states), hostSales: ledger.sales.length, charged: ledger.totals.charged, seconds, problems },
    null,
    2,
  ),
);
// Keep the evidence of a failed run; clean up a good one.
if (problems.length === 0) rmSync(dir, { recursive: true, force: true });
else console.error(`state kept in ${dir}`);
process.exit(problems.length === 0 ? 0 : 1);
