import net from 'node:net';
import type { VirtualPrinter } from './printer.js';

/** A TCP listener in front of a virtual printer, as a network printer's raw port 9100. */
export interface VirtualPrinterServer {
  readonly port: number;
  readonly host: string;
  /** Drops every connection (the printer "goes away") without closing the listener. */
  dropConnections(): void;
  close(): Promise<void>;
}

/**
 * Serves `printer` on `host:port` (port 0 = any free port). Bytes from any connection go to the
 * printer; its answers go to the connection that wrote last (a 9100 port serves one host at a time).
 */
export function serveVirtualPrinter(
  printer: VirtualPrinter,
  opts: { port?: number; host?: string } = {},
): Promise<VirtualPrinterServer> {
  const host = opts.host ?? '127.0.0.1';
  const sockets = new Set<net.Socket>();
  let last: net.Socket | undefined;
  const off = printer.onReply((bytes) => {
    if (last && !last.destroyed) last.write(bytes);
  });
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      last = socket;
      printer.write(Uint8Array.from(chunk));
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      sockets.delete(socket);
      if (last === socket) last = undefined;
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      const address = server.address() as net.AddressInfo;
      resolve({
        port: address.port,
        host,
        dropConnections: () => {
          for (const s of sockets) s.destroy();
        },
        close: () =>
          new Promise<void>((done) => {
            off();
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}
