import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request, type Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LazyAgent } from '../../../src/main/lazy-agent.js';

let server: Server;
let base = '';
beforeAll(async () => {
  server = createServer((req, res) =>
    res.end(`${req.method ?? ''} ${req.url ?? ''} ${String(req.headers['x-tap'] ?? '')}`),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('LazyAgent', () => {
  it('makes its Agent at the first request, not before, and carries requests as the Agent does', async () => {
    const agent = new LazyAgent({ keepAliveTimeout: 10_000 });
    expect(agent.made).toBe(false);
    const res = await request(`${base}/v1/x?y=1`, { dispatcher: agent });
    expect(res.statusCode).toBe(200);
    expect(await res.body.text()).toBe('GET /v1/x?y=1 ');
    expect(agent.made).toBe(true);
    await agent.close();
  });

  it('closes and destroys without ever making the Agent when nothing was sent', async () => {
    const a = new LazyAgent({});
    await a.close();
    const b = new LazyAgent({});
    await b.destroy(null);
    await new Promise<void>((r) => new LazyAgent({}).close(r));
    expect([a.made, b.made]).toEqual([false, false]);
  });

  it("passes on the Agent's connectionError (the health's acquirer reachability listens to it)", async () => {
    const agent = new LazyAgent({});
    const errors: string[] = [];
    agent.on('connectionError', (origin, _targets, err) => errors.push(`${String(origin)} ${err.message}`));
    const port = await closedPort();
    await expect(request(`http://127.0.0.1:${port}/`, { dispatcher: agent })).rejects.toThrow();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(`http://127.0.0.1:${port}`);
    await agent.close();
  });

  it("composes interceptors as the Agent does (undici's compose)", async () => {
    const agent = new LazyAgent({});
    const tap: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (opts, handler) =>
      dispatch({ ...opts, headers: { ...(opts.headers as Record<string, string>), 'x-tap': 'tapped' } }, handler);
    const res = await request(`${base}/t`, { dispatcher: agent.compose(tap) });
    expect(await res.body.text()).toBe('GET /t tapped');
    expect(agent.made).toBe(true);
    await agent.close();
  });
});
