import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { execFileSync } from 'node:child_process';
import pino from 'pino';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/run.js';
import { createLogger } from '../../../src/core/log/index.js';
import { startTestDaemon, type TestDaemon } from '../../helpers/daemon.js';
import { untar } from '../../../src/operations/support/index.js';
import { sensitiveIn } from './sensitive.js';
import { tempDirForFile } from '../../helpers/temp-dir.js';

const dir = tempDirForFile('omnipos-support-');
let stateDir: string;
let daemon: TestDaemon;
let token: string;
let t: TestDaemon | undefined;

beforeAll(async () => {
  stateDir = path.join(dir, 'state');
  mkdirSync(path.join(stateDir, 'logs'), { recursive: true });
  // The daemon logs to its file at debug, as `omnipos run` does: the bundle takes its end.
  const log = createLogger({
    level: 'debug',
    destination: pino.destination({ dest: path.join(stateDir, 'logs', 'omnipos.log'), sync: true }),
  });
  t = await startTestDaemon({ stateDir, log });
  daemon = t;
  ({ token } = t);
});
afterAll(async () => {
  await t?.stop();
});

async function api(method: 'GET' | 'POST', p: string, body?: unknown) {
  const res = await request(`${daemon.apiUrl}${p}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return JSON.parse(await res.body.text());
}

describe('omnipos support bundle', () => {
  it('writes one tar.gz (readable by tar) with configuration, versions, health from the running daemon, outbox, logs and the day, and nothing sensitive', async () => {
    // A chip sale with a PIN (the default card) and one left awaiting the cash register.
    const sale = await api('POST', '/v1/payments', { amount: 2510, method: 'credit' });
    for (let i = 0; i < 400 && (await api('GET', `/v1/payments/${sale.id}`)).status !== 'confirmed'; i++)
      await new Promise((r) => setTimeout(r, 25));
    for (let i = 0; i < 400 && (await api('GET', '/v1/health')).busy; i++) await new Promise((r) => setTimeout(r, 25));
    const out = path.join(dir, 'bundle.tar.gz');
    let said = '';
    const port = new URL(daemon.apiUrl).port;
    const code = await runCli(['support', 'bundle', '--out', out], {
      out: (s) => (said += s),
      err: (s) => (said += s),
      env: { OMNIPOS_STATE_DIR: stateDir, OMNIPOS_API__PORT: port },
    });
    expect(code, said).toBe(0);
    expect(said).toContain('daemon answered');
    const gz = readFileSync(out);
    const files = new Map(untar(gunzipSync(gz)).map((f) => [f.name, f.data.toString('utf8')]));
    expect([...files.keys()].sort()).toEqual([
      'README.txt',
      'archive.json',
      'config.json',
      'day.json',
      'health.json',
      'logs.txt',
      'outbox.json',
      'versions.json',
    ]);
    // The system's tar reads it too.
    const listed = execFileSync('tar', ['tzf', out], { encoding: 'utf8' }).trim().split('\n').sort();
    expect(listed).toEqual([...files.keys()].sort());
    const health = JSON.parse(files.get('health.json')!);
    expect(health).toMatchObject({ reachable: true, body: { status: expect.any(String), alarms: expect.any(Array) } });
    const versions = JSON.parse(files.get('versions.json')!);
    expect(versions).toMatchObject({
      node: process.versions.node,
      omnipos: expect.stringMatching(/^\d+\.\d+\.\d+/),
      os: { platform: process.platform },
    });
    const config = JSON.parse(files.get('config.json')!);
    expect(config.values.terminal.terminalId).toBe(daemon.config.terminal.terminalId);
    expect(config.secrets).toBe('[REDACTED]');
    const day = JSON.parse(files.get('day.json')!);
    expect(day.counts.sales).toBe(1);
    expect(day.totals.net).toBe(2510);
    expect(files.get('logs.txt')).toContain('omnipos started');
    expect(files.get('logs.txt')!.length).toBeGreaterThan(1000);
    // Nothing sensitive: card data, the BDK, the client secret, the MerchantKey, the API token.
    const all = [...files.values()].join('\n');
    expect(sensitiveIn(all, { apiToken: token })).toEqual([]);
    expect(sensitiveIn(gz.toString('latin1'), { apiToken: token })).toEqual([]);
    console.log(
      `support bundle: ${gz.length} bytes gzipped, ${[...files.values()].reduce((a, f) => a + f.length, 0)} bytes in ${files.size} files`,
    );
  }, 120_000);

  it('says so when the daemon is not running, and still writes the bundle', async () => {
    const out = path.join(dir, 'offline.tar.gz');
    let said = '';
    expect(
      await runCli(['support', 'bundle', '--out', out], {
        out: (s) => (said += s),
        err: (s) => (said += s),
        env: { OMNIPOS_STATE_DIR: stateDir, OMNIPOS_API__PORT: '1' },
      }),
    ).toBe(0);
    expect(said).toContain('not reachable');
    const files = new Map(untar(gunzipSync(readFileSync(out))).map((f) => [f.name, f.data.toString('utf8')]));
    expect(JSON.parse(files.get('health.json')!)).toMatchObject({
      reachable: false,
      reason: expect.stringContaining('did not answer'),
    });
  });
});
