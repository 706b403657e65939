import { createServer, type Server } from 'node:http';

/** The wallet partner's undo-callback endpoint: a real HTTP server on loopback that records each POST. */
export interface CallbackReceiver {
  url: string;
  /** Every request received, in order, with the status it was answered. */
  received: { method: string; body: Record<string, unknown>; answered: number }[];
  /** Resolves when `n` requests were answered 2xx. */
  delivered(n?: number, timeoutMs?: number): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

/** `failFirst`: how many requests are answered 503 before the receiver accepts (the sandbox must retry). */
export async function startCallbackReceiver(o: { failFirst?: number } = {}): Promise<CallbackReceiver> {
  let failures = o.failFirst ?? 0;
  const received: CallbackReceiver['received'] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        body = { unparsable: true };
      }
      const status = failures > 0 ? 503 : 204;
      if (failures > 0) failures--;
      received.push({ method: req.method ?? '', body, answered: status });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/omnipos/undo-callback`;
  return {
    url,
    received,
    async delivered(n = 1, timeoutMs = 20_000) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const ok = received.filter((r) => r.answered < 300);
        if (ok.length >= n) return ok.map((r) => r.body);
        if (Date.now() > end) throw new Error(`only ${ok.length} callbacks delivered (of ${received.length} received)`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
}
