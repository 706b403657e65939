import { Agent, request } from 'undici';
import type { Config } from '../config/index.js';
import { OmniposError } from '../core/index.js';
import { ensureApiToken } from '../store/index.js';

/** A running daemon's local API as a command reaches it: its address (from the configuration) and token (from the state directory). */
export interface DaemonApi {
  url: string;
  token: string;
  /** Where the token came from, for messages. */
  tokenFile: string;
  dispatcher: Agent;
  close(): Promise<void>;
}

/** The daemon's loopback API address and token as the configuration gives them. */
export function daemonApi(config: Config): DaemonApi {
  const { token, file } = ensureApiToken(config.values.stateDir);
  const host = ['0.0.0.0', '::'].includes(config.values.api.host) ? '127.0.0.1' : config.values.api.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${config.values.api.port}`;
  return apiAt(url, token, file);
}

/** The API of a daemon this process started (its URL and token known). */
export function apiAt(url: string, token: string, tokenFile: string): DaemonApi {
  const dispatcher = new Agent({ keepAliveTimeout: 5_000, connect: { timeout: 2_000 } });
  return { url, token, tokenFile, dispatcher, close: () => dispatcher.close().catch(() => undefined) };
}

/** The words a command prints when no daemon answers: how to start one. */
export function howToStart(url: string): string {
  return `no omnipos daemon answers at ${url}. Start one: \`omnipos start\` (on a terminal: \`sudo systemctl start omnipos\`), or \`npm start\` for the demo on the embedded sandbox and virtual devices`;
}

/** True for the errors of a connection nobody accepted (no daemon there). */
export function isNotListening(e: unknown): boolean {
  const code = (e as { code?: string }).code ?? (e as { cause?: { code?: string } }).cause?.code;
  return (
    code === 'ECONNREFUSED' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ENOTFOUND' || code === 'EHOSTUNREACH'
  );
}

/** One JSON call; an answer that is not JSON comes back as `{ message }`. */
export async function callApi(
  api: DaemonApi,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
  /** How long the answer may take (default 15 s; a phone order waits while its card is typed). */
  timeoutMs = 15_000,
  /** Headers besides the token's (a supervisor's credential). */
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await request(`${api.url}${path}`, {
    method,
    dispatcher: api.dispatcher,
    headers: {
      ...headers,
      authorization: `Bearer ${api.token}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  const text = await res.body.text();
  try {
    return { status: res.statusCode, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  } catch {
    return { status: res.statusCode, body: { message: text.slice(0, 200) } };
  }
}

/**
 * Checks that a daemon answers with this token: its health, or OPERATIONS_DAEMON_UNREACHABLE saying how to
 * start one, or ENVIRONMENT_REFUSED when the token is another state directory's.
 */
export async function requireDaemon(api: DaemonApi): Promise<Record<string, unknown>> {
  let health: { status: number; body: Record<string, unknown> };
  try {
    health = await callApi(api, 'GET', '/v1/health');
  } catch (e) {
    if (isNotListening(e))
      throw new OmniposError('OPERATIONS_DAEMON_UNREACHABLE', howToStart(api.url), { url: api.url });
    throw e;
  }
  if (health.status === 401) {
    throw new OmniposError(
      'ENVIRONMENT_REFUSED',
      `the daemon at ${api.url} refused the token in ${api.tokenFile}: is it another state directory's daemon?`,
      { url: api.url },
    );
  }
  return health.body;
}

/** One server-sent event of `GET /v1/events`, its `data` parsed. */
export type ApiEvent = Record<string, unknown> & { type: string; id?: number };

/**
 * Subscribes to `GET /v1/events` and calls `onEvent` for each event as it arrives (comments and
 * heartbeats skipped). Resolves once the subscription is in place; `close()` ends it.
 */
export async function subscribeEvents(api: DaemonApi, onEvent: (e: ApiEvent) => void): Promise<{ close(): void }> {
  const ac = new AbortController();
  const res = await fetch(`${api.url}/v1/events`, {
    headers: { authorization: `Bearer ${api.token}` },
    signal: ac.signal,
  });
  if (res.status !== 200 || !res.body) throw new OmniposError('INTERNAL', `GET /v1/events answered HTTP ${res.status}`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let opened!: () => void;
  const ready = new Promise<void>((r) => (opened = r));
  void (async () => {
    try {
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) return;
        buffer += decoder.decode(chunk.value as Uint8Array, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          if (block.startsWith(':')) {
            opened();
            continue;
          }
          const data = block
            .split('\n')
            .filter((l) => l.startsWith('data:'))
            .map((l) => l.slice(5).replace(/^ /, ''))
            .join('');
          try {
            onEvent(JSON.parse(data) as ApiEvent);
          } catch {
            // A block that is not an event of ours: skipped.
          }
        }
      }
    } catch {
      // Aborted or the daemon went away: the caller notices through its own calls.
    } finally {
      opened();
    }
  })();
  await ready;
  return { close: () => ac.abort() };
}

/** A JSON field as text for a human: strings, numbers and booleans as they are, anything else `fallback`. */
export function text(v: unknown, fallback = '-'): string {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : fallback;
}
