// A real mosquitto on loopback for the fleet tests: a test CA made here with openssl, a TLS
// listener that requires a client certificate (its CN is the MQTT username), and an ACL file
// (a terminal writes only under its own prefix and reads only its own commands).
import { sandboxSettings, type SandboxBase } from '../../../src/sandbox/index.js';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { userInfo } from 'node:os';
import path from 'node:path';
import { connect, type MqttClient } from 'mqtt';
import { PACKAGE_ROOT } from '../../../src/config/index.js';

export const MOSQUITTO = process.env.MOSQUITTO ?? '/usr/sbin/mosquitto';
export const MERCHANT = 'm1';

function openssl(args: string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: 'pipe' });
}

export interface Pki {
  dir: string;
  ca: string;
  /** PEM files of a client certificate whose CN is `name`. */
  client(name: string): { cert: string; key: string };
}

/** A CA, the broker's certificate (SAN 127.0.0.1) and one client certificate per name (EC P-256: fast). */
export function makePki(dir: string, names: readonly string[]): Pki {
  const key = (file: string): void =>
    openssl(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', file], dir);
  key('ca.key');
  openssl(
    ['req', '-x509', '-new', '-key', 'ca.key', '-subj', '/CN=omnipos test CA', '-days', '2', '-out', 'ca.pem'],
    dir,
  );
  const issue = (name: string, ext?: string): void => {
    key(`${name}.key`);
    openssl(['req', '-new', '-key', `${name}.key`, '-subj', `/CN=${name}`, '-out', `${name}.csr`], dir);
    const args = [
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-days',
      '2',
      '-out',
      `${name}.pem`,
    ];
    if (ext) {
      writeFileSync(path.join(dir, `${name}.ext`), ext);
      args.push('-extfile', `${name}.ext`);
    }
    openssl(args, dir);
  };
  issue('broker', 'subjectAltName=IP:127.0.0.1\n');
  for (const n of names) issue(n);
  return {
    dir,
    ca: path.join(dir, 'ca.pem'),
    client: (n) => ({ cert: path.join(dir, `${n}.pem`), key: path.join(dir, `${n}.key`) }),
  };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** mosquitto with TLS, client certificates as identities and the fleet's ACL; stop and start on the same port. */
export class Broker {
  #child: ChildProcess | undefined;
  readonly conf: string;
  log = '';

  constructor(
    readonly pki: Pki,
    readonly port: number,
  ) {
    const dir = pki.dir;
    writeFileSync(
      path.join(dir, 'acl'),
      [
        '# terminals (username = certificate CN = terminal id): write only under their own prefix, read only their commands',
        `pattern write omnipos/${MERCHANT}/%u/#`,
        `pattern read omnipos/${MERCHANT}/%u/cmd/+`,
        '# the operator: the whole tree',
        'user operator',
        'topic readwrite omnipos/#',
        '',
      ].join('\n'),
    );
    this.conf = path.join(dir, 'mosquitto.conf');
    writeFileSync(
      this.conf,
      [
        // Run as whoever runs the tests (as root, mosquitto would switch to "mosquitto", who cannot read the temp dir).
        `user ${userInfo().username}`,
        'per_listener_settings false',
        // Sessions and their queued messages survive a restart: a consumer with a persistent session misses nothing.
        'persistence true',
        `persistence_location ${dir}/`,
        'allow_anonymous false',
        `acl_file ${path.join(dir, 'acl')}`,
        'log_dest stderr',
        'log_type error',
        'log_type warning',
        'log_type notice',
        'log_timestamp_format %H:%M:%S',
        `listener ${port} 127.0.0.1`,
        `cafile ${pki.ca}`,
        `certfile ${path.join(dir, 'broker.pem')}`,
        `keyfile ${path.join(dir, 'broker.key')}`,
        'require_certificate true',
        'use_identity_as_username true',
        '',
      ].join('\n'),
    );
  }

  get url(): string {
    return `mqtts://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawn(MOSQUITTO, ['-c', this.conf], { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr?.on('data', (b: Buffer) => (this.log += b.toString()));
    this.#child = child;
    for (let i = 0; i < 200; i++) {
      if (child.exitCode !== null) throw new Error(`mosquitto exited ${child.exitCode}: ${this.log}`);
      if (await accepts(this.port)) return;
      await sleep(50);
    }
    throw new Error(`mosquitto never listened: ${this.log}`);
  }

  async stop(): Promise<void> {
    const child = this.#child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Until `f()` is true, polling; generous, for a loaded machine. */
export async function until(what: string, f: () => boolean, timeoutMs = 45_000, explain?: () => string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!f()) {
    if (Date.now() > end) throw new Error(`never: ${what}${explain ? `\n${explain()}` : ''}`);
    await sleep(50);
  }
}

/** An MQTT client with one of the test CA's client certificates. */
export async function mqttAs(
  broker: Broker,
  name: string,
  opts: { reconnectPeriod?: number; session?: string } = {},
): Promise<MqttClient> {
  const c = broker.pki.client(name);
  const client = connect(broker.url, {
    protocolVersion: 5,
    clientId: opts.session ?? `${name}-${Math.random().toString(36).slice(2, 8)}`,
    // A consumer that must see every message keeps a session (clean start off, an expiry): the
    // broker queues its QoS 1 messages while it is away, across a broker restart.
    ...(opts.session ? { clean: false, properties: { sessionExpiryInterval: 3600 } } : {}),
    ca: readFileSync(broker.pki.ca),
    cert: readFileSync(c.cert),
    key: readFileSync(c.key),
    reconnectPeriod: opts.reconnectPeriod ?? 500,
  });
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => resolve());
    client.once('error', reject);
  });
  return client;
}

/** A terminal's configuration file: the shared sandbox host, a virtual pinpad and printer, the fleet broker. */
export function terminalConfig(o: {
  dir: string;
  terminalId: string;
  ordinal: number;
  sandbox: { urls: Readonly<Record<SandboxBase, string>> };
  broker: Broker;
  merchantId: string;
  brokerUrl?: string;
  noFleet?: boolean;
}): string {
  const c = o.broker.pki.client(o.terminalId);
  const file = path.join(o.dir, 'omnipos.json');
  writeFileSync(
    file,
    JSON.stringify({
      environment: 'sandbox',
      stateDir: path.join(o.dir, 'state'),
      terminal: {
        subordinatedMerchantId: o.merchantId,
        terminalId: o.terminalId,
        ordinal: o.ordinal,
        mode: 'attended',
      },
      acquirer: {
        // every base address on its own listener of the shared sandbox host
        ...sandboxSettings(o.sandbox),
        clientId: 'omnipos-sandbox-client',
        clientSecretFile: path.join(PACKAGE_ROOT, 'config', 'sandbox', 'client-secret'),
        merchantId: '00000000-0000-4000-8000-000000000001',
        merchantKeyFile: path.join(PACKAGE_ROOT, 'config', 'sandbox', 'merchant-key'),
        ksi: '03033',
      },
      sandbox: { embedded: false },
      pinpad: { device: { kind: 'virtual', port: 0 } },
      printer: { kind: 'virtual' },
      api: { host: '127.0.0.1', port: 0 },
      alarms: { checkSeconds: 1 },
      log: { level: 'silent' },
      ...(o.noFleet
        ? {}
        : {
            fleet: {
              mqtt: {
                url: o.brokerUrl ?? o.broker.url,
                merchant: MERCHANT,
                certFile: c.cert,
                keyFile: c.key,
                caFile: o.broker.pki.ca,
                keepaliveSeconds: 30,
                statusSeconds: 60,
              },
            },
          }),
    }),
  );
  return file;
}
