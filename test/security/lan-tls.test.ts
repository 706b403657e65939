import { readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { connect as tcpConnect, type Socket } from 'node:net';
import path from 'node:path';
import { connect, getCiphers } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/core/log/index.js';
import { startDaemon, type Daemon } from '../../src/main.js';
import { shippedConfig, writeConfig } from '../helpers/config.js';
import { tempDirForFile } from '../helpers/temp-dir.js';
import { selfSigned } from '../helpers/tls-cert.js';

/**
 * The LAN listener (`api.lan`) as a TLS scanner and a flood see it, on a real daemon: which TLS 1.2
 * suites it accepts (testssl-style), what it does with connections that never send a ClientHello,
 * how many it holds, and which Host names it answers.
 */
const dir = tempDirForFile('omnipos-sec-lan-');
const LAN_NAME = 'caixa.loja.lan';
let daemon: Daemon;
let port: number;
let token: string;

beforeAll(async () => {
  const pem = selfSigned([LAN_NAME]);
  writeFileSync(path.join(dir, 'lan.crt'), pem.cert);
  writeFileSync(path.join(dir, 'lan.key'), pem.key, { mode: 0o600 });
  const c = shippedConfig();
  c.stateDir = path.join(dir, 'state') as never;
  c.api = { host: '127.0.0.1', port: 0, lan: { host: '127.0.0.1', port: 0, certFile: 'lan.crt', keyFile: 'lan.key' } };
  const config = loadConfig({ path: writeConfig(path.join(dir, 'omnipos.json'), c), env: {} });
  daemon = await startDaemon({ config, log: createLogger({ level: 'silent' }), env: {}, sandboxPort: 0 });
  port = Number(new URL(daemon.lanUrl!).port);
  token = readFileSync(daemon.apiTokenFile, 'utf8').trim();
}, 60_000);
afterAll(async () => {
  await daemon?.stop();
});

/** Whether the listener completes a TLS 1.2 handshake offering `cipher` alone (the client lets any suite through). */
function accepts12(cipher: string): Promise<boolean> {
  return new Promise((resolve) => {
    let s;
    try {
      s = connect({
        host: '127.0.0.1',
        port,
        maxVersion: 'TLSv1.2',
        ciphers: `${cipher}:@SECLEVEL=0`,
        rejectUnauthorized: false,
      });
    } catch {
      resolve(false);
      return;
    }
    s.once('secureConnect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

const closed = (s: Socket): Promise<void> => new Promise((resolve) => s.once('close', () => resolve()));

describe('the LAN TLS listener', () => {
  it('accepts in TLS 1.2 only ECDHE suites with an AEAD cipher (no RSA key exchange, CBC or SHA-1)', async () => {
    const tls12 = getCiphers()
      .filter((c) => !c.startsWith('tls_'))
      .map((c) => c.toUpperCase());
    const accepted: string[] = [];
    for (const c of tls12) if (await accepts12(c)) accepted.push(c);
    console.log(`LAN listener, TLS 1.2 suites accepted: ${accepted.join(' ')}`);
    expect(accepted.length).toBeGreaterThan(0);
    for (const c of accepted)
      expect(c).toMatch(/^ECDHE-(RSA|ECDSA)-(AES(128|256)-GCM-SHA(256|384)|CHACHA20-POLY1305)$/);
    expect(await accepts12('AES128-SHA')).toBe(false);
  });

  it('drops a connection that never sends a ClientHello within about 10 s', async () => {
    const idle = tcpConnect({ host: '127.0.0.1', port });
    await Promise.race([closed(idle), new Promise((r) => setTimeout(r, 25_000))]);
    expect(idle.destroyed || idle.readyState === 'closed').toBe(true);
    idle.destroy();
  }, 40_000);

  it(`answers the LAN name of its certificate (${LAN_NAME}) and refuses another Host (421)`, async () => {
    const get = (host: string): Promise<number> =>
      new Promise((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port,
            path: '/v1/health',
            headers: { host, authorization: `Bearer ${token}` },
            rejectUnauthorized: false,
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end();
      });
    expect(await get(LAN_NAME)).toBe(200);
    expect(await get(`${LAN_NAME}:${port}`)).toBe(200);
    expect(await get('evil.example')).toBe(421);
  });

  it('holds at most 64 connections: one more is closed at once', async () => {
    const idle: Socket[] = [];
    for (let i = 0; i < 64; i++) {
      const s = tcpConnect({ host: '127.0.0.1', port });
      await new Promise((r) => s.once('connect', r));
      idle.push(s);
    }
    const extra = tcpConnect({ host: '127.0.0.1', port });
    await Promise.race([closed(extra), new Promise((r) => setTimeout(r, 5000))]);
    const wasClosed = extra.destroyed;
    for (const s of [...idle, extra]) s.destroy();
    expect(wasClosed).toBe(true);
  }, 30_000);
});
