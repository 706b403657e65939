import { createRequire } from 'node:module';
import type { IClientOptions, MqttClient } from 'mqtt';
import type * as MqttModule from 'mqtt';
import type { FleetMqttSettings } from '../config/index.js';
import type { FleetTopics } from './topics.js';

/** mqtt is loaded when the fleet client connects (only with fleet.mqtt configured), not when omnipos starts. */
const load = createRequire(import.meta.url);

/**
 * Connects to the broker as the configuration says (MQTT 5, a clean session, the broker's certificate
 * checked), with the last will `{"online":false}` retained on the status topic; mqtt retries every
 * `reconnectMs` after a lost connection.
 */
export function connectBroker(s: FleetMqttSettings, topics: FleetTopics, reconnectMs: number): MqttClient {
  const options: IClientOptions = {
    clientId: s.clientId,
    protocolVersion: 5,
    clean: true,
    keepalive: s.keepaliveSeconds,
    reconnectPeriod: reconnectMs,
    connectTimeout: 10_000,
    rejectUnauthorized: true,
    will: {
      topic: topics.status,
      payload: Buffer.from(JSON.stringify({ online: false })),
      qos: 1,
      retain: true,
    },
    ...(s.username !== undefined ? { username: s.username } : {}),
    ...(s.password ? { password: s.password.reveal() } : {}),
    ...(s.ca ? { ca: s.ca } : {}),
    ...(s.cert ? { cert: s.cert } : {}),
    ...(s.key ? { key: s.key.reveal() } : {}),
  };
  return (load('mqtt') as typeof MqttModule).connect(s.url, options);
}

/** The publish's outcome, or false when the connection closed first (the publish is abandoned). */
export function untilClosed(client: MqttClient, p: Promise<unknown>): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const onClose = (): void => {
      client.off('close', onClose);
      resolve(false);
    };
    client.on('close', onClose);
    p.then(
      () => {
        client.off('close', onClose);
        resolve(true);
      },
      (e: unknown) => {
        client.off('close', onClose);
        if (!client.connected) resolve(false);
        else reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/** `p`'s value, or undefined after `ms`. */
export function withTimeout<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  return Promise.race([p, new Promise<undefined>((r) => setTimeout(() => r(undefined), ms).unref())]);
}
