import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Where the screenshots go (gitignored; CI keeps them as artifacts). */
export const ARTIFACTS = path.resolve('test-artifacts', 'screens');

/** Debian's chromium, as `.ci/run` installs it. */
export const CHROMIUM = process.env.OMNIPOS_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Headless Debian chromium with a fresh profile: no sandbox (containers), no GPU, nothing that
 * phones home (QUIC, background networking, component updates, sync). `timezoneId`: the
 * browser's zone (default the machine's).
 */
export async function launch(
  o: { timezoneId?: string } = {},
): Promise<{ context: BrowserContext; page: Page; close(): Promise<void> }> {
  const profile = mkdtempSync(path.join(tmpdir(), 'omnipos-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    ...(o.timezoneId ? { timezoneId: o.timezoneId } : {}),
    viewport: { width: 1024, height: 768 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // The fresh --user-data-dir is `profile`: playwright passes it (it refuses the flag in args).
    ],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Saves a screenshot as `test-artifacts/screens/<name>.png`. */
export async function snap(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/**
 * Collects what the page reports as errors (uncaught exceptions, CSP refusals, console errors)
 * and every answer of 400 or more (`HTTP 404 /path`), but for `allowed` paths: routes a screen
 * falls back from when the daemon does not serve them, and the browser's own favicon request.
 */
export function pageErrors(page: Page, allowed: RegExp[] = []): string[] {
  const errors: string[] = [];
  const ok = [/^\/favicon\.ico$/, ...allowed];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(`console: ${m.text()}`);
  });
  page.on('response', (r) => {
    const p = new URL(r.url()).pathname;
    if (r.status() >= 400 && !ok.some((re) => re.test(p))) errors.push(`HTTP ${r.status()} ${p}`);
  });
  return errors;
}

/** A payment as `GET /v1/payments` lists it (the fields the screens' tests read). */
export interface ListedPayment {
  id: number;
  amount: number;
  method: string;
  status: string;
  qrCode?: string;
  authorizationCode?: string;
  card?: { maskedPan: string };
}

/** `GET /v1/payments[?status=]` on the daemon, newest first. */
export async function listPayments(apiUrl: string, token: string, status?: string): Promise<ListedPayment[]> {
  const res = await fetch(`${apiUrl}/v1/payments${status ? `?status=${status}` : ''}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return ((await res.json()) as { payments: ListedPayment[] }).payments;
}

/** A card typed on the pinpad in a test: what the page must never hold of it. */
export interface TypedTestCard {
  number: string;
  month: string;
  year: string;
  code: string;
}

/**
 * What of `card` (its number, its expiry as typed or sent, its security code) and of `more` (tokens)
 * the page's markup, its text or any field's value holds: nothing, or the test fails.
 */
export async function cardOnPage(page: Page, card: TypedTestCard, more: string[] = []): Promise<string[]> {
  const seen = [
    await page.content(),
    await page.evaluate(() => {
      const d = (
        globalThis as unknown as {
          document: { body: { innerText: string }; querySelectorAll(s: string): ArrayLike<{ value: string }> };
        }
      ).document;
      return [d.body.innerText, ...Array.from(d.querySelectorAll('input, select'), (i) => i.value)].join('\n');
    }),
  ].join('\n');
  return [card.number, `${card.month}/${card.year}`, `${card.month}${card.year}`, card.code, ...more].filter((s) =>
    seen.includes(s),
  );
}

export { ws15Env } from '../helpers/cnp-backends.js';

/** The pinpad's four prompts of a typed card, each with the keys that answer it and its Portuguese words. */
export function typingSteps(card: TypedTestCard): [string, string, RegExp][] {
  return [
    ['card-number', card.number, /número do cartão/],
    ['expiry-month', card.month, /mês de validade/],
    ['expiry-year', card.year, /ano de validade/],
    ['security-code', card.code, /código de segurança/],
  ];
}
