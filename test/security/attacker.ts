import { request, type IncomingHttpHeaders } from 'node:http';

/**
 * The attacker's side of the security tests: raw requests to a real daemon (node:http, no client
 * that would tidy them), from a chosen loopback address (127.0.0.2 is another client than
 * 127.0.0.1 to the daemon, as another machine on the LAN would be), with any headers and body.
 */
export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json: { error?: { code?: string; message?: string } } & Record<string, unknown>;
}

export function send(
  base: string,
  method: string,
  path: string,
  o: { headers?: Record<string, string>; body?: string; from?: string } = {},
): Promise<Answer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port,
        method,
        path,
        headers: o.headers ?? {},
        localAddress: o.from ?? '127.0.0.1',
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: Answer['json'] = {};
          try {
            json = text ? (JSON.parse(text) as Answer['json']) : {};
          } catch {
            json = {};
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on('error', reject);
    req.end(o.body);
  });
}

/** The headers of a JSON request with the cash register's (or another) bearer token. */
export function bearer(token: string, extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...extra };
}
