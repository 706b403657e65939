import { isLoopbackHost, isWildcardHost } from './loopback.js';
import type { ConfigValues } from './schema.js';

/** A part of a production configuration that exposes the terminal, by key. */
export interface Exposure {
  path: string;
  /** What it is, as `<what> is not allowed in production` tells it. */
  what: string;
}

/**
 * What exposes a production terminal on its network, each named by its key: the plain-HTTP API
 * (and its bearer token) off loopback, where `api.lan` (TLS) is the way; an http:// alarm webhook
 * with credentials in its address; a TCP pinpad on loopback, where only a software pinpad listens.
 * (An alarm webhook or an MQTT broker in clear off loopback is refused outside the sandbox: outside-sandbox.ts.)
 */
export function exposureProblems(values: ConfigValues): Exposure[] {
  const out: Exposure[] = [];
  if (isWildcardHost(values.api.host) || !isLoopbackHost(values.api.host))
    out.push({
      path: 'api.host',
      what: `the plain-HTTP API on ${values.api.host} (its bearer token in clear off loopback; use api.lan, over TLS)`,
    });
  const hook = values.alarms.webhook;
  if (hook) {
    const u = new URL(hook.url);
    // In clear off loopback it is refused outside the sandbox already (outside-sandbox.ts); on loopback, not with credentials.
    if (u.protocol !== 'https:' && (u.search !== '' || u.username !== '' || u.password !== ''))
      out.push({ path: 'alarms.webhook.url', what: 'an http:// alarm webhook with credentials in its address' });
  }
  const device = values.pinpad.device;
  if (device.kind === 'tcp' && isLoopbackHost(device.host))
    out.push({ path: 'pinpad.device.host', what: `a TCP pinpad on ${device.host} (where a software pinpad listens)` });
  return out;
}
