import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, listenApi, type ApiDeps } from '../../../src/api/app.js';
import { EventHub } from '../../../src/api/events.js';
import { EventTickets } from '../../../src/api/event-tickets.js';
import { SCREENS_CSP } from '../../../src/api/screens.js';
import { createLogger } from '../../../src/core/log/index.js';

const TOKEN = 'screens-test-token-0123456789';
const DIR = new URL('../../../src/screens/', import.meta.url);
const FILES = readdirSync(DIR).filter((n) => /\.(html|js|css)$/.test(n));
let api: Awaited<ReturnType<typeof listenApi>>;
let port: number;

beforeAll(async () => {
  // Only the screens, the tickets and the event stream are exercised: no engine is reached.
  const deps = {
    token: TOKEN,
    log: createLogger({ level: 'silent' }),
    events: new EventHub(),
    heartbeatMs: 60_000,
  } as unknown as ApiDeps;
  api = await listenApi(buildApp(deps), '127.0.0.1', 0);
  port = Number(new URL(api.url).port);
});
afterAll(async () => {
  await api?.close();
});

/** A raw request: the path goes on the wire exactly as given (no client-side normalisation). */
function raw(
  path: string,
  o: { method?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path, method: o.method ?? 'GET', headers: o.headers ?? {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('GET /screens/*', () => {
  it('serves every screen file with its type, no-cache with an ETag (304 on a match), the CSP and the other guard headers, without a token', async () => {
    expect(FILES.length).toBeGreaterThanOrEqual(14);
    const types: Record<string, string> = {
      html: 'text/html; charset=utf-8',
      js: 'text/javascript; charset=utf-8',
      css: 'text/css; charset=utf-8',
    };
    for (const name of FILES) {
      const r = await raw(`/screens/${name}`);
      expect(r.status, name).toBe(200);
      expect(r.headers['content-type']).toBe(types[name.split('.').pop()!]);
      expect(r.body.equals(readFileSync(new URL(name, DIR)))).toBe(true);
      expect(r.headers['cache-control']).toBe('no-cache');
      expect(r.headers['content-security-policy']).toBe(SCREENS_CSP);
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.headers['referrer-policy']).toBe('no-referrer');
      expect(r.headers['x-frame-options']).toBe('DENY');
      const etag = r.headers.etag!;
      expect(etag).toMatch(/^"[\w-]{22}"$/);
      const again = await raw(`/screens/${name}`, { headers: { 'if-none-match': etag } });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
      const head = await raw(`/screens/${name}`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
    }
    expect(SCREENS_CSP).toContain("script-src 'self'");
    expect(SCREENS_CSP).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    expect(SCREENS_CSP).toContain("default-src 'none'");
  });

  it('the pages hold nothing the CSP would refuse: no inline script or style, no handler attributes, nothing from another origin', () => {
    for (const name of FILES.filter((n) => n.endsWith('.html'))) {
      const html = readFileSync(new URL(name, DIR), 'utf8');
      expect(html, name).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i);
      expect(html, name).not.toMatch(/<style\b|\sstyle=|\son[a-z]+=/i);
      expect(html, name).not.toMatch(/(src|href)="(https?:)?\/\//i);
    }
  });

  it('says the environment without a token (null when the daemon does not tell)', async () => {
    const r = await raw('/screens/environment.json');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(r.body.toString())).toEqual({ environment: null });
  });

  it('redirects /screens/ to the index; refuses other methods with 405', async () => {
    expect(await raw('/screens/')).toMatchObject({ status: 302, headers: { location: '/screens/index.html' } });
    expect(await raw('/screens')).toMatchObject({ status: 302 });
    const post = await raw('/screens/cashier.html', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
  });

  it('path traversal finds nothing: dot segments, encoded slashes and dots, backslashes, NUL, case, double slashes all 404 as JSON', async () => {
    const secret = readFileSync(new URL('../../../package.json', import.meta.url), 'utf8').slice(0, 40);
    const attacks = [
      '/screens/../package.json',
      '/screens/../api/app.ts',
      '/screens/..%2f..%2fpackage.json',
      '/screens/%2e%2e/%2e%2e/package.json',
      '/screens/%2e%2e%2f%2e%2e%2fpackage.json',
      '/screens/..%5c..%5cpackage.json',
      '/screens/..\\..\\package.json',
      '/screens/cashier.html/../../../package.json',
      '/screens//etc/passwd',
      '/screens/%2fetc%2fpasswd',
      '/screens/....//....//package.json',
      '/screens/cashier.html%00.png',
      '/screens/CASHIER.HTML',
      '/screens/.gitignore',
      '/screens/%63ashier.html',
      '/screens/../../../../../../etc/passwd',
      '/screens/api.ts',
    ];
    for (const path of attacks) {
      const r = await raw(path);
      expect([400, 404], path).toContain(r.status);
      expect(r.headers['content-type'], path).toMatch(/^application\/json/);
      expect(r.body.toString(), path).not.toContain(secret);
      expect(r.body.toString(), path).not.toContain('root:');
    }
  });

  it('property: any path under /screens/ is either exactly a screen file or a JSON 404/400 (1000 runs, seed printed)', async () => {
    const seed = Date.now() % 2 ** 31;
    console.log(`screens path property seed ${seed}`);
    const piece = fc.constantFrom(
      '..',
      '.',
      '/',
      '%2e',
      '%2f',
      '%5c',
      '\\',
      '%00',
      'cashier.html',
      'api.js',
      'package.json',
      'etc',
      'passwd',
      '%',
      'a',
      'screens',
      '~',
      ';',
    );
    const names = new Set(FILES);
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { minLength: 1, maxLength: 8 }), async (parts) => {
        const tail = parts.join('');
        const r = await raw(`/screens/${tail}`);
        // The daemon reads the target as a WHATWG URL, as a browser would: `\\` is `/` and a `%2e`
        // segment is `.`, so `%2e\\cashier.html` is the cashier page itself — never anything outside.
        const normalized = new URL(`http://localhost/screens/${tail}`).pathname;
        if (names.has(tail) || names.has(normalized.replace(/^\/screens\//, ''))) expect(r.status).toBe(200);
        else {
          expect([302, 400, 404]).toContain(r.status);
          if (r.status !== 302) expect(r.headers['content-type']).toMatch(/^application\/json/);
        }
      }),
      { numRuns: 1000, seed },
    );
  });
});

describe('GET /screens/qr.svg (the payment code drawn by the daemon)', () => {
  it('needs the token, a text of 1..1024 characters, and answers SVG with no-store', async () => {
    const code = '00020101021226580014BR.COM.PADRAOQ';
    expect((await raw(`/screens/qr.svg?text=${code}`)).status).toBe(401);
    const ok = await raw(`/screens/qr.svg?text=${code}`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
    expect(ok.headers['content-type']).toBe('image/svg+xml');
    expect(ok.headers['cache-control']).toBe('no-store');
    expect(ok.body.toString()).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect((await raw('/screens/qr.svg', { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(400);
    expect(
      (await raw(`/screens/qr.svg?text=${'A'.repeat(1025)}`, { headers: { authorization: `Bearer ${TOKEN}` } })).status,
    ).toBe(400);
  });
});

describe('event tickets (EventSource cannot send the bearer header)', () => {
  it('a ticket bought with the token opens GET /v1/events once; not twice, not another route, not without the token', async () => {
    expect((await raw('/v1/events/ticket', { method: 'POST' })).status).toBe(401);
    const bought = await raw('/v1/events/ticket', { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(bought.status).toBe(201);
    const { ticket, expiresInMs } = JSON.parse(bought.body.toString()) as { ticket: string; expiresInMs: number };
    expect(ticket).toMatch(/^[\w-]{43}$/);
    expect(expiresInMs).toBe(30_000);
    // Another route does not take it (and does not spend it).
    expect((await raw(`/v1/health?ticket=${ticket}`)).status).toBe(401);
    const stream = await new Promise<{ status: number; type: string | undefined; first: string }>((resolve, reject) => {
      const req = http.get({ host: '127.0.0.1', port, path: `/v1/events?ticket=${ticket}` }, (res) => {
        res.once('data', (c: Buffer) => {
          resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], first: c.toString() });
          req.destroy();
        });
      });
      req.on('error', reject);
    });
    expect(stream).toMatchObject({ status: 200, first: ': omnipos events\n\n' });
    expect(stream.type).toMatch(/^text\/event-stream/);
    expect((await raw(`/v1/events?ticket=${ticket}`)).status).toBe(401);
    expect((await raw('/v1/events?ticket=made-up')).status).toBe(401);
  });

  it('expires after its time, is spent by a use, and at most 64 wait at once', () => {
    let now = 1_000;
    const tickets = new EventTickets(30_000, () => now, 64);
    const a = tickets.issue().ticket;
    const b = tickets.issue().ticket;
    now += 29_999;
    expect(tickets.redeem(a)).toBe(true);
    expect(tickets.redeem(a)).toBe(false);
    now += 1;
    expect(tickets.redeem(b)).toBe(false);
    expect(tickets.redeem('')).toBe(false);
    expect(tickets.redeem(null)).toBe(false);
    const many = Array.from({ length: 70 }, () => tickets.issue().ticket);
    expect(tickets.outstanding).toBe(64);
    expect(tickets.redeem(many[0])).toBe(false);
    expect(tickets.redeem(many[69])).toBe(true);
    expect(new Set(many).size).toBe(70);
  });
});
