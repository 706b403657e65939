/**
 * The figures of issue 31's event stream under load, measured on a real daemon in a process of its
 * own (not a test: it prints figures and asserts nothing). Usage:
 *
 *   node --import tsx test/security/measure-streams.ts 50 300
 *
 * For each count: a fresh daemon (`omnipos run`, the default sandbox configuration), a day of 20,000
 * events in its event log, then that many clients (one loopback address each) that open
 * `GET /v1/events` with `Last-Event-ID: 0` and never read. Printed: the streams the daemon took, its
 * RSS before, with the streams open and after they closed, and `/v1/health`'s latency meanwhile.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { businessDay } from '../../src/api/events.js';

const DAY_EVENTS = 20_000;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const rssMiB = (pid: number): number =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

async function healthMs(api: string, token: string): Promise<number> {
  const start = performance.now();
  const r = await fetch(`${api}/v1/health`, { headers: { authorization: `Bearer ${token}` } });
  await r.text();
  return performance.now() - start;
}

async function latency(api: string, token: string): Promise<{ median: number; max: number }> {
  const times: number[] = [];
  for (let i = 0; i < 15; i++) {
    times.push(await healthMs(api, token));
    await sleep(100);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)] ?? 0, max: times.at(-1) ?? 0 };
}

/** A client that asks for the day's replay and never reads; resolves with the status line's code. */
function silentStream(port: number, token: string, from: string): Promise<{ socket: Socket; status: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress: from }, () => {
      socket.write(
        `GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nLast-Event-ID: 0\r\n\r\n`,
      );
    });
    socket.once('error', reject);
    socket.once('data', (d: Buffer) => {
      // The head only: from now on nothing is read (the kernel's buffers fill, then the daemon's).
      socket.pause();
      resolve({ socket, status: d.toString('latin1').slice(9, 12) });
    });
  });
}

async function measure(count: number): Promise<void> {
  const state = mkdtempSync(path.join(tmpdir(), 'omnipos-measure-streams-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', 'run'], {
    env: {
      ...process.env,
      OMNIPOS_STATE_DIR: state,
      OMNIPOS_CONFIG: '',
      OMNIPOS_SANDBOX__PORT: '0',
      OMNIPOS_API__PORT: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('omnipos started')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`the daemon exited ${String(code)}`)));
    });
    const started = JSON.parse(out.split('\n').find((l) => l.includes('omnipos started')) ?? '{}') as {
      api?: string;
      apiUrl?: string;
    };
    const api = started.api ?? started.apiUrl ?? '';
    const port = Number(new URL(api).port);
    const token = readFileSync(path.join(state, 'api-token'), 'utf8').trim();
    const db = new Database(path.join(state, 'omnipos.db'));
    const at = new Date().toISOString();
    db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO api_events (business_day, at, body)
       SELECT ?, ?, json_object('type', 'state', 'id', i, 'state', 'authorizing', 'seq', 0, 'at', ?,
                                'kind', 'card', 'status', 'pending', 'note', printf('%.80c', 'x')) FROM n`,
    ).run(DAY_EVENTS, businessDay(new Date()), at, at);
    db.close();
    await latency(api, token);
    const pid = child.pid ?? 0;
    const before = { rss: rssMiB(pid), ...(await latency(api, token)) };
    const streams: Socket[] = [];
    const statuses = new Map<string, number>();
    for (let i = 0; i < count; i++) {
      const s = await silentStream(port, token, `127.0.${10 + Math.floor(i / 200)}.${(i % 200) + 1}`);
      streams.push(s.socket);
      statuses.set(s.status, (statuses.get(s.status) ?? 0) + 1);
    }
    await sleep(5_000);
    const open = { rss: rssMiB(pid), ...(await latency(api, token)) };
    for (const s of streams) s.destroy();
    await sleep(10_000);
    const after = { rss: rssMiB(pid), ...(await latency(api, token)) };
    const f = (n: number): string => n.toFixed(1);
    console.log(
      `${count} streams (answers ${JSON.stringify(Object.fromEntries(statuses))}): RSS ${f(before.rss)} → ${f(open.rss)} → ${f(after.rss)} MiB (before, open, 10 s after closing); ` +
        `health median/max ${f(before.median)}/${f(before.max)} ms before, ${f(open.median)}/${f(open.max)} ms open, ${f(after.median)}/${f(after.max)} ms after`,
    );
  } finally {
    child.kill('SIGKILL');
    rmSync(state, { recursive: true, force: true });
  }
}

for (const count of process.argv.slice(2).map(Number)) await measure(count);
