import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardSim, findCard } from '../../../src/sim/pinpad/card/index.js';
import { decodeQrRgba } from '../../helpers/qr-decode.js';
import { startTestDaemon } from '../../helpers/daemon.js';

/**
 * GET /v1/payments/{id}/receipt?format=qr on a kiosk's daemon: the SVG it serves, drawn module by
 * module from its own path and read by jsQR (an independent decoder), is the customer's copy.
 */
let t: Awaited<ReturnType<typeof startTestDaemon>>;
beforeAll(async () => {
  t = await startTestDaemon({ env: { OMNIPOS_TERMINAL__MODE: 'unattended' } });
}, 60_000);
afterAll(async () => {
  await t?.stop();
});

/** The SVG's squares (`M x y h1v1h-1z`, viewBox in modules) as an RGBA image, `px` pixels a module. */
function rasterize(svg: string, px = 4): { rgba: Uint8ClampedArray; size: number } {
  const n = Number(/viewBox="0 0 (\d+) \1"/.exec(svg)?.[1]);
  expect(n).toBeGreaterThan(20);
  const size = n * px;
  const rgba = new Uint8ClampedArray(size * size * 4).fill(255);
  for (const m of svg.matchAll(/M(\d+) (\d+)h1v1h-1z/g)) {
    const [x, y] = [Number(m[1]), Number(m[2])];
    for (let dy = 0; dy < px; dy++)
      for (let dx = 0; dx < px; dx++) {
        const i = ((y * px + dy) * size + x * px + dx) * 4;
        rgba[i] = rgba[i + 1] = rgba[i + 2] = 0;
      }
  }
  return { rgba, size };
}

async function get(p: string): Promise<{ status: number; type: string; form: string | undefined; body: string }> {
  const res = await request(`${t.apiUrl}${p}`, { headers: { authorization: `Bearer ${t.token}` } });
  return {
    status: res.statusCode,
    type: String(res.headers['content-type']),
    form: res.headers['x-omnipos-digital-copy'] as string | undefined,
    body: await res.body.text(),
  };
}

describe('the receipt as a QR code to its digital copy', () => {
  it('a "receipt": false chip sale: the SVG decodes to the 32-column customer copy — amount, card first 6 / last 4, authorization code, no PAN', async () => {
    const card = findCard({ lastDigit: 0 })!;
    expect(cardSim(t.pinpad.state).deck.choose({ pan: card.pan, via: 'chip', pin: 'right' }).ok).toBe(true);
    const res = await request(`${t.apiUrl}/v1/payments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 4321 * 10, method: 'credit', receipt: false }),
    });
    const { id } = (await res.body.json()) as { id: number };
    expect(res.statusCode).toBe(202);
    for (let i = 0; i < 400 && t.journal.get(id)!.state !== 'confirmed'; i++)
      await new Promise((r) => setTimeout(r, 25));
    const entry = t.journal.get(id)!;
    expect(entry.state).toBe('confirmed');
    const auth = (entry.data as { authorizationCode?: string }).authorizationCode!;
    expect(auth).toMatch(/\S/);

    const qr = await get(`/v1/payments/${id}/receipt?format=qr`);
    expect(qr.status).toBe(200);
    expect(qr.type).toBe('image/svg+xml');
    expect(qr.form).toBe('full');
    const { rgba, size } = rasterize(qr.body);
    const text = decodeQrRgba(rgba, size, size);
    expect(text).toBeDefined();
    expect(text).toContain('R$ 432,10');
    expect(text).toContain(`${card.pan.slice(0, 6)}******${card.pan.slice(-4)}`);
    expect(text).toContain(auth);
    expect(text).toContain('VIA CLIENTE');
    expect(text).not.toContain(card.pan);
    for (const line of text!.split('\n')) expect([...line].length, JSON.stringify(line)).toBeLessThanOrEqual(32);
    // the same copy the text route gives at 32 columns (trailing spaces aside)
    const plain = await get(`/v1/payments/${id}/receipt?format=text&columns=32&copy=customer`);
    expect(text).toBe(
      plain.body
        .split('\n')
        .map((l) => l.trimEnd())
        .join('\n')
        .replace(/\n{3,}/g, '\n\n')
        .trim(),
    );
  }, 30_000);

  it('no payment: 404; a bad format: 400 naming the field', async () => {
    expect((await get('/v1/payments/999999/receipt?format=qr')).status).toBe(404);
    const bad = await get('/v1/payments/1/receipt?format=qrcode');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({ error: { code: 'INVALID_FIELD' } });
  });
});
