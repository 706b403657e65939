import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDaemon } from '../helpers/daemon.js';
import { launch, pageErrors, snap } from './browser.js';

/**
 * One language at a time, in business time: every page, in Portuguese and then through the
 * language button in English, shows no word of the other language (the daemon's statuses, health
 * problems and alarms included, with the printer out of paper); text in another language is
 * marked so (`lang`: the acquirer's or the pinpad's own words, the Brazilian receipt);
 * identifiers (`<code>`, `data-raw`: NSU, authorization, masked card) are not words. The browser
 * runs in Tokyo's zone: times on the page are São Paulo's.
 */

let t: Awaited<ReturnType<typeof startTestDaemon>>;
let b: Awaited<ReturnType<typeof launch>>;
beforeAll(async () => {
  [t, b] = await Promise.all([
    startTestDaemon({ env: { OMNIPOS_ALARMS__CHECK_SECONDS: '1' } }),
    launch({ timezoneId: 'Asia/Tokyo' }),
  ]);
}, 60_000);
afterAll(async () => {
  await b?.close();
  await t?.stop();
});

/** Words only English has, and words only Portuguese has (as the screens could show them). */
const ENGLISH = new Set(
  'the of is are and to not no yes paper printer pending confirmed approved declined cancelled failed undone status dead letter letters deadline offline unreachable secure session degraded acquirer outbox payment payments today amount method card time alarm alarms refund void voids close closed day report password sales sold net receipt charge installments credit debit cancel reprint new sale back clear continue wallet enter insert remove processing out service checking scan touch pay choose print screen show would like how your'.split(
    ' ',
  ),
);
const PORTUGUESE = new Set(
  'não sim de da dos das em com sem para pagamento pagamentos hoje valor forma hora situação cartão impressora papel fila envio envios aprovada recusada cancelada confirmada desfeita andamento alarme alarmes fechar fechado dia relatório senha cancelar cobrar crédito débito parcelas vendas vendido líquido comprovante caixa autoatendimento operações nova venda reimprimir digite toque pagar deseja imprimir tela voltar limpar continuar insira passe aproxime retire escaneie como'.split(
    ' ',
  ),
);

/** The visible words of the page in its own language: text nodes and alt/placeholder texts, less marked ones. */
async function visibleWords(page: Page): Promise<{ word: string; text: string }[]> {
  const texts = await page.evaluate(() => {
    const d = (globalThis as unknown as { document: any }).document;
    const pageLang = d.documentElement.lang;
    const skip = (el: any): boolean => {
      if (!el) return true;
      if (el.closest('code, script, style, [data-raw], [hidden], title')) return true;
      const marked = el.closest('[lang]');
      if (marked && marked !== d.documentElement && marked.lang !== pageLang) return true;
      return typeof el.checkVisibility === 'function' && !el.checkVisibility();
    };
    const out: string[] = [];
    const walker = d.createTreeWalker(d.body, 4);
    for (let n = walker.nextNode(); n; n = walker.nextNode())
      if (n.nodeValue.trim() && !skip(n.parentElement)) out.push(n.nodeValue.trim());
    for (const el of d.querySelectorAll('img[alt], input[placeholder]'))
      if (!skip(el)) out.push(el.alt || el.placeholder);
    return out;
  });
  return texts.flatMap((text) => (text.toLowerCase().match(/\p{L}+/gu) ?? []).map((word) => ({ word, text })));
}

async function foreignWords(page: Page, lang: 'pt' | 'en'): Promise<string[]> {
  const other = lang === 'pt' ? ENGLISH : PORTUGUESE;
  return (await visibleWords(page)).filter((w) => other.has(w.word)).map((w) => `${w.word} in "${w.text}"`);
}

const docLang = (page: Page): Promise<string> =>
  page.evaluate(
    () => (globalThis as unknown as { document: { documentElement: { lang: string } } }).document.documentElement.lang,
  );

/** Opens a screen in Portuguese (the language a session chose is kept across pages). */
async function open(page: Page, name: string): Promise<void> {
  await page.goto(`${t.apiUrl}/screens/${name}.html#token=${t.token}`);
  await page.waitForLoadState('networkidle');
  if ((await docLang(page)) === 'en') await page.click('#lang');
  expect(await docLang(page)).toBe('pt-BR');
}

async function api(method: 'GET' | 'POST', p: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${t.apiUrl}${p}`, {
    method,
    headers: {
      authorization: `Bearer ${t.token}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return (await res.json()) as Record<string, unknown>;
}

async function settle(id: number, done: (p: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  for (let i = 0; i < 600; i++) {
    const p = await api('GET', `/v1/payments/${id}`);
    if (done(p) && !t.busy) return p;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`payment ${id} did not settle`);
}

const saoPaulo = (iso: string): string =>
  new Intl.DateTimeFormat('pt-BR', {
    timeZone: 'America/Sao_Paulo',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));
const tokyo = (iso: string): string =>
  new Intl.DateTimeFormat('pt-BR', {
    timeZone: 'Asia/Tokyo',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));

describe('the screens, one language at a time', () => {
  it('supervisor: statuses, health, problems and alarms in Portuguese, then all in English; times in São Paulo', async () => {
    const { page } = b;
    const errors = pageErrors(page, [/^\/v1\/payments\/\d+\/void$/]);
    const sold = (await api('POST', '/v1/payments', { amount: 2510, method: 'credit' })) as { id: number };
    const sale = await settle(sold.id, (p) => p.status === 'confirmed');
    const refused = (await api('POST', '/v1/payments', { amount: 2511, method: 'credit' })) as { id: number };
    await settle(refused.id, (p) => p.status === 'declined');
    // The printer runs out of paper: a reprint fails, health says so (a problem and an alarm).
    t.printer.loadPaper(0);
    await api('POST', `/v1/payments/${sold.id}/receipt/print`);
    type Health = { problems: string[]; alarms: { code: string }[] };
    // The alarm checks run every second here (alarms.checkSeconds).
    await expect
      .poll(async () => ((await api('GET', '/v1/health')) as Health).alarms.map((a) => a.code), { timeout: 20_000 })
      .toContain('PRINTER_PAPER_OUT');
    expect(((await api('GET', '/v1/health')) as Health).problems).toContain('printer: paper out');

    await open(page, 'supervisor');
    await page.waitForSelector('#payments tbody tr');
    await page.waitForSelector('#problems li');
    await page.waitForSelector('#alarms li');
    await page.waitForSelector('#day-report dd');
    // A refusal from the daemon, in the page's words.
    await page.fill('#supervisor-password', '11111');
    await page.fill('#void-payment', String(sold.id));
    await page.click('#void-start');
    await page.waitForSelector('#void-status[data-code]:not([data-code=""])');
    expect(await page.textContent('#void-status')).toMatch(/Nenhuma senha de supervisor configurada/);
    expect(await page.textContent('#payments')).toMatch(/confirmada/);
    expect(await page.textContent('#payments')).toMatch(/recusada/);
    expect(await page.textContent('#problems')).toContain('Impressora: sem papel');
    expect(await page.textContent('#alarms')).toContain('A impressora está sem papel');
    expect(await foreignWords(page, 'pt')).toEqual([]);
    // The time column is São Paulo's, not the browser's (Tokyo).
    const at = sale.createdAt as string;
    const shown = await page.textContent(`#payments td[data-at="${at}"]`);
    expect(shown).toBe(saoPaulo(at));
    expect(shown).not.toBe(tokyo(at));
    await snap(page, 'language-supervisor-pt');

    await page.click('#lang');
    await page.waitForFunction(
      () =>
        (globalThis as unknown as { document: { documentElement: { lang: string } } }).document.documentElement.lang ===
        'en',
    );
    await expect.poll(async () => page.textContent('#problems')).toContain('Printer: out of paper');
    await expect.poll(async () => page.textContent('#payments')).toMatch(/confirmed/);
    await expect.poll(async () => page.textContent('#void-status')).toMatch(/No supervisor password is set/);
    expect(await foreignWords(page, 'en')).toEqual([]);
    await snap(page, 'language-supervisor-en');
    await page.click('#lang');
    expect(errors.filter((e) => !/HTTP 403/.test(e))).toEqual([]);
  }, 120_000);

  it('cashier: a declined sale and its result in Portuguese (the acquirer\u2019s message marked as such), then in English', async () => {
    const { page } = b;
    t.printer.loadPaper();
    const errors = pageErrors(page, [/^\/v1\/payments\/\d+\/receipt$/]);
    await open(page, 'cashier');
    expect(await foreignWords(page, 'pt')).toEqual([]);
    await page.fill('#amount', '36,11');
    await page.check('input[value=credit]');
    await page.click('#charge');
    await page.waitForSelector('#result:not([hidden])', { timeout: 30_000 });
    expect(await page.textContent('#result')).toMatch(/^Recusada/);
    expect(await foreignWords(page, 'pt')).toEqual([]);
    await page.click('#lang');
    await expect.poll(async () => page.textContent('#result')).toMatch(/^Declined/);
    expect(await foreignWords(page, 'en')).toEqual([]);
    await snap(page, 'language-cashier-en');
    await page.click('#lang');
    expect(errors).toEqual([]);
  }, 120_000);

  it('kiosk and index: every word in the page\u2019s language, both ways', async () => {
    const { page } = b;
    for (const name of ['kiosk', 'index']) {
      await open(page, name);
      expect(await foreignWords(page, 'pt'), name).toEqual([]);
      if (await page.$('#lang')) {
        await page.click('#lang');
        await page.waitForFunction(
          () =>
            (globalThis as unknown as { document: { documentElement: { lang: string } } }).document.documentElement
              .lang === 'en',
        );
        expect(await foreignWords(page, 'en'), name).toEqual([]);
        await page.click('#lang');
      }
    }
  }, 60_000);
});
