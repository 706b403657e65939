import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { xmlDeclaredEncoding } from '../../core/index.js';
import { Faults } from '../faults.js';
import { ws15FaultRouteOf } from './faults.js';
import { ERRO } from './erros.js';
import { Ws15Host, type Ws15HostOptions } from './host.js';
import { erroReply } from './replies.js';
import { WS15_PATH } from './test-data.js';

/**
 * The webservice 1.5 on its own listener, as the real service is on its own host (ws15:1500):
 * `POST /servicos/ecommwsec.do`, `application/x-www-form-urlencoded`, one field `mensagem`
 * (ws15:263-269), ISO-8859-1 (ws15:286). The HTTP status of an `erro` answer is not shown by the
 * manual: the sandbox answers 200 with the `<erro>` body, and 404/405/415/413 only for what is not
 * the service at all (another path, method, content type, or a body too large).
 */
export interface RunningWs15 {
  /** The endpoint, `http://127.0.0.1:<port>/servicos/ecommwsec.do`. */
  readonly url: string;
  readonly port: number;
  readonly host: Ws15Host;
  /** The faults its messages meet (webservice15/faults.ts), in the database it was given; none without one. */
  readonly faults?: Faults;
  close(): Promise<void>;
}

const MAX_BODY = 256 * 1024;

/** `a=b&c=d` with each byte percent-encoded: the `mensagem` field's bytes, `+` as a space. */
export function mensagemOf(body: Buffer): Buffer | undefined {
  for (const pair of body.toString('latin1').split('&')) {
    const eq = pair.indexOf('=');
    if (eq < 0 || pair.slice(0, eq) !== 'mensagem') continue;
    const raw = pair.slice(eq + 1).replace(/\+/g, ' ');
    const bytes: number[] = [];
    for (let i = 0; i < raw.length; i++) {
      if (raw[i] === '%' && /^[0-9A-Fa-f]{2}$/.test(raw.slice(i + 1, i + 3))) {
        bytes.push(parseInt(raw.slice(i + 1, i + 3), 16));
        i += 2;
      } else bytes.push(raw.charCodeAt(i) & 0xff);
    }
    return Buffer.from(bytes);
  }
  return undefined;
}

/** The message's text: UTF-8 when its declaration says so (the manual's own ws15:1346 does), ISO-8859-1 otherwise. */
function messageText(bytes: Buffer): string {
  const declared = xmlDeclaredEncoding(bytes.subarray(0, 200).toString('latin1'))?.toLowerCase();
  return declared === 'utf-8' || declared === 'utf8' ? bytes.toString('utf8') : bytes.toString('latin1');
}

function reply(res: ServerResponse, status: number, xmlText: string): void {
  const body = Buffer.from(xmlText, 'latin1');
  res.writeHead(status, { 'content-type': 'text/xml; charset=ISO-8859-1', 'content-length': body.length });
  res.end(body);
}

/**
 * One message's answer under the fault its root names, as the JSON API's server applies them
 * (src/sandbox/server.ts): latency first; a 5xx without handling; the connection reset before the host
 * did the work or after; the answer dropped (the work done, never answered).
 */
async function answerUnderFault(
  host: Ws15Host,
  faults: Faults | undefined,
  text: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const route = faults ? ws15FaultRouteOf(text) : undefined;
  const fault = route ? faults?.take(route) : undefined;
  if (fault?.latencyMs) await delay(fault.latencyMs);
  if (fault?.status) return void res.writeHead(fault.status, { 'content-length': 0 }).end();
  if (fault?.reset === 'before') return void req.socket.destroy();
  const answer = host.answer(text);
  if (fault?.reset === 'after') return void req.socket.destroy();
  if (fault?.drop) return; // held: the listener's close ends it
  reply(res, 200, answer);
}

export function ws15Listener(host: Ws15Host, faults?: Faults): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== WS15_PATH) return void res.writeHead(404).end();
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
    if (!/^application\/x-www-form-urlencoded\b/i.test(req.headers['content-type'] ?? ''))
      return void res.writeHead(415).end();
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        res.writeHead(413, { connection: 'close' }).end();
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => {
      if (res.headersSent) return;
      const bytes = mensagemOf(Buffer.concat(chunks));
      if (!bytes) return reply(res, 200, erroReply(ERRO.invalidMessage.code, 'O campo mensagem nao foi informado'));
      answerUnderFault(host, faults, messageText(bytes), req, res).catch(() => res.destroy());
    });
  };
}

/** Listens on `address` (loopback) at `port` (0: a free one). */
export async function listenWs15(
  options: Ws15HostOptions & { port?: number; address?: string } = {},
): Promise<RunningWs15> {
  const host = new Ws15Host(options);
  const faults = options.db ? new Faults({ db: options.db }) : undefined;
  const server: Server = createServer(ws15Listener(host, faults));
  server.keepAliveTimeout = 5000;
  const address = options.address ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, address, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}${WS15_PATH}`,
    port,
    host,
    ...(faults ? { faults } : {}),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
