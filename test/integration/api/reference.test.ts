import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCREENS_CSP } from '../../../src/api/screens.js';
import { accepts } from '../../../src/api/reference.js';
import { startTestDaemon } from '../../helpers/daemon.js';

/** `GET /v1/docs`: the API reference the daemon renders from its own document. */

let t: Awaited<ReturnType<typeof startTestDaemon>>;
let doc: {
  paths: Record<string, Record<string, { operationId: string }>>;
  components: { schemas: Record<string, unknown> };
};
let html: string;
let headers: Record<string, string | string[] | undefined>;
beforeAll(async () => {
  t = await startTestDaemon();
  doc = (await request(`${t.apiUrl}/v1/openapi.json`).then((r) => r.body.json())) as typeof doc;
  const res = await request(`${t.apiUrl}/v1/docs`, {
    headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
  });
  expect(res.statusCode).toBe(200);
  headers = res.headers;
  html = await res.body.text();
});
afterAll(async () => {
  await t?.stop();
});

describe('GET /v1/docs', () => {
  it('is an HTML page without a token, under the screens\u2019 CSP', () => {
    expect(headers['content-type']).toBe('text/html; charset=utf-8');
    expect(headers['content-security-policy']).toBe(SCREENS_CSP);
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(html.startsWith('<!doctype html>')).toBe(true);
  });

  it('loads nothing from elsewhere and nothing the CSP blocks: no script, no inline style, no absolute URL', () => {
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/\sstyle=/i);
    expect(html).not.toMatch(/<style/i);
    expect(html).not.toMatch(/\s(?:src|href)="(?:https?:)?\/\//i);
    const local = [...html.matchAll(/\s(?:src|href)="([^"#][^"]*)"/g)].map((m) => m[1]);
    expect(local.sort()).toEqual(['/screens/reference.css', '/v1/openapi.json']);
  });

  it('shows every operation of the document under its operationId, and every schema', () => {
    for (const [p, ops] of Object.entries(doc.paths)) {
      for (const [m, op] of Object.entries(ops)) {
        expect(html, `${m} ${p}`).toContain(`id="${op.operationId}"`);
        expect(html).toContain(`<code>${p}</code>`);
      }
    }
    for (const name of Object.keys(doc.components.schemas)) expect(html).toContain(`id="schema-${name}"`);
    // Prose is escaped: the summary with quotes and angle brackets arrives as text.
    expect(html).toContain('Answer the receipt question (&#34;o comprovante saiu?&#34;)');
  });

  it('its stylesheet is served from the screens, and the links inside resolve', async () => {
    const css = await request(`${t.apiUrl}/screens/reference.css`);
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    await css.body.text();
    const ids = new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]));
    for (const m of html.matchAll(/href="#([^"]+)"/g)) expect(ids.has(m[1]), m[1]).toBe(true);
  });

  it('answers 406 to a client that takes neither HTML nor everything; the document likewise for JSON', async () => {
    const page = await request(`${t.apiUrl}/v1/docs`, { headers: { accept: 'application/json' } });
    expect(page.statusCode).toBe(406);
    expect(await page.body.json()).toMatchObject({ error: { code: 'NOT_ACCEPTABLE' } });
    const json = await request(`${t.apiUrl}/v1/openapi.json`, { headers: { accept: 'text/html' } });
    expect(json.statusCode).toBe(406);
    await json.body.text();
    expect(accepts({ headers: {} } as never, 'text/html')).toBe(true);
    expect(accepts({ headers: { accept: 'text/*' } } as never, 'text/html')).toBe(true);
    expect(accepts({ headers: { accept: 'text/html;q=0, */*;q=0' } } as never, 'text/html')).toBe(false);
    expect(accepts({ headers: { accept: 'application/json, text/plain' } } as never, 'text/html')).toBe(false);
  });
});
