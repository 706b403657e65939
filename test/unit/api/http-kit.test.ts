import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendError } from '../../../src/api/http-kit.js';
import Database from '../../../src/store/sqlite.js';

/** A real SQLITE_FULL from SQLite: a database capped at its current size asked to grow. */
function diskFull(): unknown {
  const db = new Database(':memory:');
  try {
    db.exec('CREATE TABLE t (x BLOB)');
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
    db.prepare('INSERT INTO t (x) VALUES (?)').run(Buffer.alloc(64 * 1024));
  } catch (e) {
    return e;
  } finally {
    db.close();
  }
  throw new Error('SQLite took the row');
}

describe('sendError', () => {
  let server: Server;
  let url = '';
  let thrown: unknown;
  beforeAll(async () => {
    server = createServer((_req, res) => sendError(res, thrown));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('a write that failed for want of space under a request that is not the journal (the order ids) answers 503 STORE_WRITE_FAILED, not 500 INTERNAL (before: 500)', async () => {
    thrown = diskFull();
    expect((thrown as { code?: string }).code).toBe('SQLITE_FULL');
    const r = await fetch(url);
    expect(r.status).toBe(503);
    const body = (await r.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('STORE_WRITE_FAILED');
    expect(body.error.message).toMatch(/SQLITE_FULL/);
  });

  it('anything else unexpected is still 500 INTERNAL, its message not sent', async () => {
    thrown = new Error('secret detail');
    const r = await fetch(url);
    expect(r.status).toBe(500);
    expect(await r.text()).not.toContain('secret');
  });
});
