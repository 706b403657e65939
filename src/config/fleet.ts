import { readFileSync } from 'node:fs';
import path from 'node:path';
import { OmniposError } from '../core/index.js';
import type { Config } from './load.js';
import { Secret } from './secret.js';

/** `fleet.mqtt` resolved: the topic prefix and client id filled in, the credential files read. */
export interface FleetMqttSettings {
  url: string;
  clientId: string;
  /** `omnipos/<merchant>/<terminal>` unless configured. */
  prefix: string;
  terminalId: string;
  username?: string;
  password?: Secret;
  cert?: string;
  key?: Secret;
  ca?: string;
  keepaliveSeconds: number;
  statusSeconds: number;
  maxQueued: number;
}

/**
 * The fleet's MQTT settings, or undefined when `fleet.mqtt` is absent. Outside the sandbox the
 * broker must be `mqtts://` (telemetry names the merchant and the day's sales). Credential files
 * resolve against the configuration file's folder and are read here, once.
 */
export function fleetMqttSettings(config: Config): FleetMqttSettings | undefined {
  const v = config.values;
  const m = v.fleet.mqtt;
  if (!m) return undefined;
  const problems: { path: string; message: string }[] = [];
  if (v.environment !== 'sandbox' && !m.url.startsWith('mqtts://'))
    problems.push({ path: 'fleet.mqtt.url', message: `must be mqtts:// in ${v.environment}` });
  if ((m.certFile === undefined) !== (m.keyFile === undefined))
    problems.push({ path: 'fleet.mqtt.certFile', message: 'certFile and keyFile go together' });
  if ((m.usernameFile === undefined) !== (m.passwordFile === undefined))
    problems.push({ path: 'fleet.mqtt.usernameFile', message: 'usernameFile and passwordFile go together' });
  const dir = path.dirname(config.source);
  const read = (file: string | undefined, key: string): string | undefined => {
    if (file === undefined) return undefined;
    try {
      return readFileSync(path.resolve(dir, file), 'utf8');
    } catch (e) {
      problems.push({
        path: `fleet.mqtt.${key}`,
        message: `cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
      });
      return undefined;
    }
  };
  const username = read(m.usernameFile, 'usernameFile')?.trim();
  const password = read(m.passwordFile, 'passwordFile')?.trim();
  const cert = read(m.certFile, 'certFile');
  const key = read(m.keyFile, 'keyFile');
  const ca = read(m.caFile, 'caFile');
  if (problems.length > 0) {
    throw new OmniposError(
      'CONFIG_INVALID',
      `configuration ${config.source} is invalid:\n${problems.map((p) => `  ${p.path}: ${p.message}`).join('\n')}`,
      { source: config.source, problems },
    );
  }
  const terminalId = v.terminal.terminalId;
  const merchant = m.merchant ?? v.terminal.subordinatedMerchantId;
  return {
    url: m.url,
    clientId: m.clientId ?? `omnipos-${terminalId}`,
    prefix: m.topicPrefix ?? `omnipos/${merchant}/${terminalId}`,
    terminalId,
    ...(username !== undefined ? { username } : {}),
    ...(password !== undefined && m.passwordFile ? { password: new Secret(password, m.passwordFile) } : {}),
    ...(cert !== undefined ? { cert } : {}),
    ...(key !== undefined && m.keyFile ? { key: new Secret(key, m.keyFile) } : {}),
    ...(ca !== undefined ? { ca } : {}),
    keepaliveSeconds: m.keepaliveSeconds,
    statusSeconds: m.statusSeconds,
    maxQueued: m.maxQueued,
  };
}
