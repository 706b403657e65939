import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

/** One request handed to a node-style (req, res) listener without a socket; resolves with the status (-1: connection dropped). */
export function exchange(
  listener: (req: IncomingMessage, res: ServerResponse) => void,
  method: string,
  url: string,
  headers: Record<string, string>,
  body: Buffer,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const socket = { destroy: () => resolve({ status: -1, body: '' }) };
    const req = Object.assign(Readable.from(body.length > 0 ? [body] : []), { method, url, headers, socket });
    let status = 0;
    const res = Object.assign(new EventEmitter(), {
      headersSent: false,
      destroyed: false,
      socket: {
        destroy: () => {
          res.emit('close');
          resolve({ status: -1, body: '' });
        },
      },
      writeHead(s: number) {
        status = s;
        res.headersSent = true;
        return res;
      },
      setHeader: () => res,
      end(text?: string) {
        resolve({ status, body: text ?? '' });
        return res;
      },
      destroy() {
        res.destroyed = true;
        resolve({ status: -1, body: '' });
        return res;
      },
    });
    listener(req as unknown as IncomingMessage, res as unknown as ServerResponse);
  });
}
