import { readFileSync } from 'node:fs';
import path from 'node:path';
import Database from '../../src/store/sqlite.js';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../helpers/temp-dir.js';
import { spawnDaemonProcess } from '../helpers/daemon-process.js';
import { bearer, send } from './attacker.js';

/**
 * A screen's payments are its own across a daemon restart, a SIGKILL included: the kiosk's token
 * still reads, prints and answers the receipt of the sale it started before the kill, and the
 * cashier's token still does not (404, as if it did not exist). Before (8230ee6) ownership was
 * kept in memory only: after the restart the kiosk got 404 on its own sale.
 */
const tempDir = useTempDirs();

const FINAL = ['confirmed', 'declined', 'failed', 'cancelled', 'undone'];

describe("a screen's payments across a restart", () => {
  it('the kiosk reaches its own sale after a SIGKILL and a new start; the cashier still does not', async () => {
    const state = tempDir('omnipos-sec-screen-restart-');
    const first = spawnDaemonProcess(state);
    let api = await first.url;
    const kiosk = readFileSync(path.join(state, 'kiosk-token'), 'utf8').trim();
    const cashier = readFileSync(path.join(state, 'cashier-token'), 'utf8').trim();
    const started = await send(api, 'POST', '/v1/payments', {
      headers: bearer(kiosk),
      body: JSON.stringify({ amount: 4321, method: 'credit' }),
    });
    expect(started.status).toBe(202);
    const id = started.json.id as number;
    let status = '';
    for (let i = 0; i < 1200 && !FINAL.includes(status); i++) {
      status = (await send(api, 'GET', `/v1/payments/${id}`, { headers: bearer(kiosk) })).json.status as string;
      if (!FINAL.includes(status)) await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe('confirmed');
    first.kill();
    await first.exit;

    const second = spawnDaemonProcess(state);
    try {
      api = await second.url;
      const own = await send(api, 'GET', `/v1/payments/${id}`, { headers: bearer(kiosk) });
      expect([own.status, own.json.id, own.json.status]).toEqual([200, id, 'confirmed']);
      expect((await send(api, 'GET', `/v1/payments/${id}/receipt`, { headers: bearer(kiosk) })).status).toBe(200);
      const theirs = await send(api, 'GET', `/v1/payments/${id}`, { headers: bearer(cashier) });
      expect([theirs.status, theirs.json.error?.code]).toEqual([404, 'NOT_FOUND']);
      for (const p of [`/v1/payments/${id}/receipt`, `/v1/payments/${id}/receipt/print`]) {
        const r = await send(api, p.endsWith('print') ? 'POST' : 'GET', p, {
          headers: bearer(cashier),
          ...(p.endsWith('print') ? { body: '{}' } : {}),
        });
        expect(r.status, p).toBe(404);
      }
    } finally {
      second.kill();
      await second.exit;
    }
    // The owner is in the database, with the payment.
    const db = new Database(path.join(state, 'omnipos.db'), { readonly: true });
    expect(db.prepare('SELECT owner FROM payment_owners WHERE journal_id = ?').get(id)).toEqual({ owner: 'kiosk' });
    db.close();
  }, 180_000);
});
