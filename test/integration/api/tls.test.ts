import { readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:tls';
import path from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { createLogger } from '../../../src/core/log/index.js';
import { startDaemon, type Daemon } from '../../../src/main.js';
import { shippedConfig, writeConfig } from '../../helpers/config.js';
import { tempDirForFile } from '../../helpers/temp-dir.js';
import { selfSigned } from '../../helpers/tls-cert.js';

const dir = tempDirForFile('omnipos-tls-');
let daemon: Daemon;
let token: string;
let pem: { cert: string; key: string };
let trusted: Agent;

beforeAll(async () => {
  pem = selfSigned();
  writeFileSync(path.join(dir, 'lan.crt'), pem.cert);
  writeFileSync(path.join(dir, 'lan.key'), pem.key, { mode: 0o600 });
  const c = shippedConfig();
  c.stateDir = path.join(dir, 'state') as never;
  c.api = { host: '127.0.0.1', port: 0, lan: { host: '127.0.0.1', port: 0, certFile: 'lan.crt', keyFile: 'lan.key' } };
  const config = loadConfig({ path: writeConfig(path.join(dir, 'omnipos.json'), c), env: {} });
  daemon = await startDaemon({ config, log: createLogger({ level: 'silent' }), env: {}, sandboxPort: 0 });
  token = readFileSync(daemon.apiTokenFile, 'utf8').trim();
  trusted = new Agent({ connect: { ca: pem.cert } });
}, 60_000);

afterAll(async () => {
  await trusted?.close();
  await daemon?.stop();
});

describe('the API on the LAN, over TLS (api.lan)', () => {
  it('serves the same API over real TLS to a client that trusts the certificate, and loopback stays plain HTTP', async () => {
    expect(daemon.lanUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(daemon.apiUrl).toMatch(/^http:\/\//);
    const res = await request(`${daemon.lanUrl}/v1/health`, {
      headers: { authorization: `Bearer ${token}` },
      dispatcher: trusted,
    });
    expect(res.statusCode).toBe(200);
    expect(await res.body.json()).toMatchObject({ status: 'ok', pinpad: { connected: true } });
    const doc = await request(`${daemon.lanUrl}/v1/openapi.json`, { dispatcher: trusted });
    expect(((await doc.body.json()) as { openapi: string }).openapi).toBe('3.1.0');
  });

  it('requires the token there too', async () => {
    const res = await request(`${daemon.lanUrl}/v1/payments`, {
      headers: { authorization: 'Bearer wrong' },
      dispatcher: trusted,
    });
    expect(res.statusCode).toBe(401);
    expect(await res.body.json()).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
  });

  it('a client that does not trust the certificate is refused by the handshake; a plain-HTTP client gets no API', async () => {
    const untrusting = new Agent();
    await expect(request(`${daemon.lanUrl}/v1/health`, { dispatcher: untrusting })).rejects.toThrow(
      /self[- ]signed|certificate/i,
    );
    await untrusting.close();
    await expect(request(daemon.lanUrl!.replace('https:', 'http:') + '/v1/health')).rejects.toThrow();
  });

  it('negotiates TLS 1.2 or newer with the certificate from the configuration', async () => {
    const port = Number(new URL(daemon.lanUrl!).port);
    const socket = connect({ host: '127.0.0.1', port, ca: pem.cert });
    await new Promise<void>((resolve, reject) => {
      socket.once('secureConnect', resolve);
      socket.once('error', reject);
    });
    expect(['TLSv1.2', 'TLSv1.3']).toContain(socket.getProtocol());
    expect(socket.getPeerCertificate().raw.toString('base64')).toBe(pem.cert.replace(/-----[^-]+-----|\s/g, ''));
    socket.destroy();
    await expect(
      new Promise((resolve, reject) => {
        const old = connect({ host: '127.0.0.1', port, ca: pem.cert, maxVersion: 'TLSv1.1', minVersion: 'TLSv1' });
        old.once('secureConnect', () => resolve(old.getProtocol()));
        old.once('error', reject);
      }),
    ).rejects.toThrow();
  });

  it('a configuration naming a missing key file is refused, naming the key', () => {
    const c = JSON.parse(readFileSync(path.join(dir, 'omnipos.json'), 'utf8')) as { api: { lan: { keyFile: string } } };
    c.api.lan.keyFile = 'missing.key';
    writeFileSync(path.join(dir, 'bad.json'), JSON.stringify(c));
    expect(() => loadConfig({ path: path.join(dir, 'bad.json'), env: {} })).toThrow(
      /api\.lan\.keyFile: cannot read .*missing\.key/,
    );
  });
});
