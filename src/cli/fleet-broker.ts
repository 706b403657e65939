import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { connect, type IClientOptions, type MqttClient } from 'mqtt';
import { OmniposError } from '../core/index.js';

/** The options every `omnipos fleet` command takes to reach the broker as an operator. */
export const BROKER_OPTIONS = {
  broker: { type: 'string' },
  prefix: { type: 'string' },
  ca: { type: 'string' },
  cert: { type: 'string' },
  key: { type: 'string' },
  'username-file': { type: 'string' },
  'password-file': { type: 'string' },
  'timeout-seconds': { type: 'string' },
} as const;

export const BROKER_USAGE = `Broker options:
  --broker URL             mqtts://host:8883 (mqtt:// only on a trusted network)
  --prefix P               the topic tree's root (default omnipos)
  --ca FILE                the CA that signed the broker's certificate (PEM)
  --cert FILE --key FILE   the operator's client certificate (PEM)
  --username-file FILE --password-file FILE   or a username and password, each from a file
  --timeout-seconds N      how long to wait for the broker and the answers (default 10)`;

export interface BrokerArgs {
  broker: string;
  prefix: string;
  timeoutMs: number;
  options: IClientOptions;
}

function read(file: string | undefined, what: string): string | undefined {
  if (file === undefined) return undefined;
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new OmniposError(
      'INVALID_ARGUMENT',
      `--${what}: cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    );
  }
}

/** Reads the broker options (and the caller's own) from `args`. */
export function brokerArgs<T extends Record<string, { type: 'string' | 'boolean' }>>(
  args: string[],
  extra: T,
): { broker: BrokerArgs; values: Record<string, string | boolean | undefined>; positionals: string[] } {
  const { values, positionals } = parseArgs({
    args,
    options: { ...BROKER_OPTIONS, ...extra },
    strict: true,
    allowPositionals: true,
  });
  const v = values as Record<string, string | boolean | undefined>;
  const url = v.broker;
  if (typeof url !== 'string' || !/^mqtts?:\/\/[^/\s]+/.test(url))
    throw new OmniposError('INVALID_ARGUMENT', '--broker URL is required (mqtts://host:port)');
  const prefix = typeof v.prefix === 'string' ? v.prefix : 'omnipos';
  if (/[#+]/.test(prefix) || prefix.endsWith('/'))
    throw new OmniposError('INVALID_ARGUMENT', '--prefix must be a topic without wildcards nor a trailing /');
  const timeout = typeof v['timeout-seconds'] === 'string' ? Number(v['timeout-seconds']) : 10;
  if (!Number.isFinite(timeout) || timeout <= 0 || timeout > 3600)
    throw new OmniposError('INVALID_ARGUMENT', '--timeout-seconds must be 1 to 3600');
  const ca = read(v.ca as string | undefined, 'ca');
  const cert = read(v.cert as string | undefined, 'cert');
  const key = read(v.key as string | undefined, 'key');
  const username = read(v['username-file'] as string | undefined, 'username-file')?.trim();
  const password = read(v['password-file'] as string | undefined, 'password-file')?.trim();
  return {
    broker: {
      broker: url,
      prefix,
      timeoutMs: timeout * 1000,
      options: {
        protocolVersion: 5,
        clientId: `omnipos-fleet-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
        reconnectPeriod: 1000,
        connectTimeout: timeout * 1000,
        rejectUnauthorized: true,
        ...(ca ? { ca } : {}),
        ...(cert ? { cert } : {}),
        ...(key ? { key } : {}),
        ...(username !== undefined ? { username } : {}),
        ...(password !== undefined ? { password } : {}),
      },
    },
    values: v,
    positionals,
  };
}

/** Connects, or fails with the broker's reason within the timeout. */
export async function connectBroker(b: BrokerArgs): Promise<MqttClient> {
  const client = connect(b.broker, b.options);
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no answer from ${b.broker} within ${b.timeoutMs / 1000} s`)),
        b.timeoutMs,
      );
      client.once('connect', () => {
        clearTimeout(timer);
        resolve();
      });
      client.once('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
    });
  } catch (e) {
    await client.endAsync(true).catch(() => undefined);
    throw new OmniposError(
      'FLEET_BROKER_UNREACHABLE',
      `cannot connect to the broker ${b.broker}: ${(e as Error).message}`,
      { broker: b.broker },
      { cause: e },
    );
  }
  return client;
}

/** Resolves once no message arrived for `quietMs` (the retained ones come right after SUBACK). */
export function quiet(client: MqttClient, quietMs: number, maxMs: number): Promise<void> {
  return new Promise((resolve) => {
    let timer = setTimeout(done, quietMs);
    const hard = setTimeout(done, maxMs);
    function onMessage(): void {
      clearTimeout(timer);
      timer = setTimeout(done, quietMs);
    }
    function done(): void {
      clearTimeout(timer);
      clearTimeout(hard);
      client.off('message', onMessage);
      resolve();
    }
    client.on('message', onMessage);
  });
}

/**
 * The request id `omnipos fleet cmd` sends and matches the answer by: `cli.<time>.<random>`, both
 * in base 36, the parts apart by dots. No part can hold 13 digits in a row, so no terminal's
 * scrubber (a PAN-shaped run: 13 to 19 digits, spaces or dashes allowed between them, passing
 * Luhn) can cut it, not even one of an older omnipos that scrubbed the echoed id: the former
 * `cli-<Date.now()>-…` held a 13-digit run passing Luhn one time in ten and lost its answer.
 */
export function commandRequestId(now = Date.now(), random: () => number = Math.random): string {
  return `cli.${Math.trunc(now).toString(36)}.${random().toString(36).slice(2, 10)}`;
}
