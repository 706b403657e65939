import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDaemon, type TestDaemon } from '../../helpers/daemon.js';
import { verifyWebhook } from '../../../src/operations/alarms/index.js';
import { tempDirForFile } from '../../helpers/temp-dir.js';

const SECRET = 'devices-webhook-secret';
const dir = tempDirForFile('omnipos-alarm-dev-');
let daemon: TestDaemon;
let token: string;
let t: TestDaemon | undefined;
let receiver: Server;
const received: { body: string; signature: string; timestamp: string }[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      received.push({
        body,
        signature: String(req.headers['x-omnipos-signature']),
        timestamp: String(req.headers['x-omnipos-timestamp']),
      });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  writeFileSync(path.join(dir, 'secret'), SECRET);
  t = await startTestDaemon({
    stateDir: path.join(dir, 'state'),
    env: {
      OMNIPOS_ALARMS__WEBHOOK__URL: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`,
      OMNIPOS_ALARMS__WEBHOOK__SECRET_FILE: path.join(dir, 'secret'),
      OMNIPOS_ALARMS__CHECK_SECONDS: '1',
    },
  });
  daemon = t;
  ({ token } = t);
});
afterAll(async () => {
  await t?.stop();
  await new Promise<void>((r) => receiver?.close(() => r()));
});

const alarms = async (): Promise<string[]> => {
  const res = await request(`${daemon.apiUrl}/v1/health`, { headers: { authorization: `Bearer ${token}` } });
  return ((await res.body.json()) as { alarms: { code: string }[] }).alarms.map((a) => a.code);
};

async function until(what: string, f: () => Promise<boolean> | boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await f())) {
    if (Date.now() > end) throw new Error(`never: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const delivered = (code: string) => received.filter((r) => JSON.parse(r.body).code === code);

describe('device alarms through a real daemon', () => {
  it('the pinpad unplugged: PINPAD_GONE in health and at the webhook (signed); back, it clears', async () => {
    await daemon.pinpadCable.unplug();
    await until('PINPAD_GONE in health', async () => (await alarms()).includes('PINPAD_GONE'));
    await until('PINPAD_GONE delivered', () => delivered('PINPAD_GONE').length === 1);
    const d = delivered('PINPAD_GONE')[0]!;
    expect(verifyWebhook(SECRET, d, d.body, Math.floor(Date.now() / 1000))).toBe(true);
    await daemon.pinpadCable.replug();
    await until('PINPAD_GONE cleared', async () => !(await alarms()).includes('PINPAD_GONE'));
  }, 60_000);

  it('the printer out of paper after a receipt: PRINTER_PAPER_OUT in health and at the webhook', async () => {
    daemon.printer.loadPaper(3);
    const res = await request(`${daemon.apiUrl}/v1/payments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 2510, method: 'credit' }),
    });
    expect(res.statusCode).toBe(202);
    await res.body.text();
    await until('PRINTER_PAPER_OUT in health', async () => (await alarms()).includes('PRINTER_PAPER_OUT'));
    await until('PRINTER_PAPER_OUT delivered', () => delivered('PRINTER_PAPER_OUT').length === 1);
    expect(JSON.parse(delivered('PRINTER_PAPER_OUT')[0]!.body)).toMatchObject({
      severity: 'warn',
      source: 'condition',
      message: 'the receipt printer is out of paper',
    });
    daemon.printer.loadPaper();
  }, 60_000);
});
