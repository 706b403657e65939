import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BASE_SOURCES, SANDBOX_BASES, type SandboxBase } from './routes.js';
import type { Sandbox } from './server.js';

/** A listening sandbox host: the controls address and one address per base. */
export interface RunningSandbox {
  /** The controls listener (`/sandbox/…`): not part of the acquirer's API. */
  readonly url: string;
  readonly port: number;
  /** Each base's address, with the path prefix the manual's URL carries (parameters: `/api/v0.1`). */
  readonly urls: Readonly<Record<SandboxBase, string>>;
  readonly ports: Readonly<Record<SandboxBase, number>>;
  readonly sandbox: Sandbox;
  readonly server: Server;
  close(): Promise<void>;
}

export interface ListenOptions {
  /** The controls listener's port (0: a free one). */
  port?: number;
  host?: string;
  /** Each base's port (0 or absent: a free one). */
  ports?: Partial<Record<SandboxBase, number>>;
}

async function listenOne(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  port: number,
  host: string,
): Promise<Server> {
  const server = createServer(handler);
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

/** Listens on `host` (loopback by default): the controls on `port`, each base on its own port. */
export async function listenSandbox(sandbox: Sandbox, opts: ListenOptions = {}): Promise<RunningSandbox> {
  const host = opts.host ?? '127.0.0.1';
  const servers: Server[] = [];
  try {
    const controls = await listenOne(sandbox.listener('controls'), opts.port ?? 0, host);
    servers.push(controls);
    const urls = {} as Record<SandboxBase, string>;
    const ports = {} as Record<SandboxBase, number>;
    for (const base of SANDBOX_BASES) {
      const s = await listenOne(sandbox.listener(base), opts.ports?.[base] ?? 0, host);
      servers.push(s);
      ports[base] = (s.address() as AddressInfo).port;
      urls[base] = `http://${host}:${ports[base]}${BASE_SOURCES[base].prefix}`;
    }
    sandbox.setPublicUrls(Object.fromEntries(SANDBOX_BASES.map((b) => [b, `http://${host}:${ports[b]}`])));
    const { port } = controls.address() as AddressInfo;
    return {
      url: `http://${host}:${port}`,
      port,
      urls,
      ports,
      sandbox,
      server: controls,
      close: async () => {
        await Promise.all(servers.map(closeServer));
        sandbox.close();
      },
    };
  } catch (e) {
    await Promise.all(servers.map(closeServer));
    throw e;
  }
}
