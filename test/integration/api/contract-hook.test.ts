import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tally } from '../../helpers/contract.js';
import { pending } from '../../helpers/contract-hook.js';

/**
 * The contract check itself can fail: a server that answers the documented addresses wrongly, called
 * the way the tests call the daemon (undici's request, fetch, the event stream), is caught with the
 * operation, the status and the path at fault. The failures are taken here so this test stays green.
 */

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url?.startsWith('/v1/events')) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': hello\n\n');
      res.write('id: 7\nevent: state\ndata: {"type":"state","seq":7,"at":"now","id":1,"kind":"sale"}\n\n');
      res.end();
      return;
    }
    const status = req.url === '/v1/payments/1' ? 200 : 418;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: 'one', status: 'paid' }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

async function taken(): Promise<string[]> {
  while (pending.size > 0) await Promise.all([...pending]);
  return tally.failures.splice(0);
}

describe('the contract check', () => {
  it('fails an answer that does not fit its operation and status, naming both and the path', async () => {
    const before = tally.answers;
    await request(`${base}/v1/payments/1`).then((r) => r.body.text());
    const found = await taken();
    expect(tally.answers).toBe(before + 1);
    expect(found.join('\n')).toContain('GET /v1/payments/{id} (getPayment) → 200');
    expect(found.join('\n')).toMatch(/#\/id .*#\/status /s);
  });

  it('fails a status the operation does not declare, through fetch too', async () => {
    await fetch(`${base}/v1/payments/2`).then((r) => r.text());
    expect((await taken()).join('\n')).toContain(
      'GET /v1/payments/{id} (getPayment) → 418: the document declares no JSON answer',
    );
  });

  it('fails an event that does not fit Event, one by one as the stream arrives', async () => {
    const before = tally.events;
    await fetch(`${base}/v1/events`).then((r) => r.text());
    const found = await taken();
    expect(tally.events).toBe(before + 1);
    expect(found.join('\n')).toContain('GET /v1/events (streamEvents) event state id 7');
  });

  it('leaves alone what the document does not name', async () => {
    const before = tally.answers;
    await request(`${base}/elsewhere`).then((r) => r.body.text());
    expect(await taken()).toEqual([]);
    expect(tally.answers).toBe(before);
  });
});
