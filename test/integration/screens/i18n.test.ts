import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { STATUSES } from '../../../src/api/payments.js';
import { ERROR_CODES } from '../../../src/core/errors/codes.js';
import { CNP_PROMPT_CODES, CNP_STATES } from '../../../src/engine/index.js';
import { PIX_STATES } from '../../../src/engine/pix/types.js';
import { QR_STATES } from '../../../src/engine/qr/types.js';
import { SALE_STATES } from '../../../src/engine/sale/types.js';

/**
 * The screens' words against what the daemon can say: every payment state and status, void
 * status, alarm code and health problem has its text in both languages, and the two tables hold
 * the same keys. (The browser test checks the pages as drawn.)
 */

const SRC = new URL('../../../src/', import.meta.url).pathname;

interface I18n {
  TEXT_KEYS: { pt: string[]; en: string[] };
  t(key: string, fallback?: string): string;
  setLang(lang: string): void;
  statusText(s: string): string;
  problemText(p: string): string;
  alarmText(a: { code: string; context?: Record<string, unknown> }): string;
  errorText(e: { code: string; field?: string }): string;
  hostTime(iso: string): string;
  hostDay(iso: string): string;
}
let i18n: I18n;
beforeAll(async () => {
  const store = new Map<string, string>();
  (globalThis as Record<string, unknown>).sessionStorage = {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => store.set(k, v),
  };
  (globalThis as Record<string, unknown>).document = { documentElement: {}, querySelectorAll: () => [] };
  const file = path.join(SRC, 'screens/i18n.js');
  i18n = (await import(file)) as I18n;
});

/** Every source file under src/ but the screens, as text. */
function sources(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return d.name === 'screens' ? [] : sources(p);
    return p.endsWith('.ts') ? [readFileSync(p, 'utf8')] : [];
  });
}

const keysOf = (lang: 'pt' | 'en') => new Set(i18n.TEXT_KEYS[lang]);

describe("the screens' words", () => {
  it('Portuguese and English hold the same keys', () => {
    expect([...keysOf('pt')].filter((k) => !keysOf('en').has(k))).toEqual([]);
    expect([...keysOf('en')].filter((k) => !keysOf('pt').has(k))).toEqual([]);
  });

  it('every engine state, payment status and void status has a text', () => {
    for (const state of new Set([...SALE_STATES, ...QR_STATES, ...PIX_STATES]))
      expect(keysOf('pt').has(`state.${state}`), state).toBe(true);
    for (const status of STATUSES) expect(keysOf('pt').has(`status.${status}`), status).toBe(true);
    for (const status of ['pending', 'approved', 'declined', 'refused', 'cancelled', 'undone', 'failed', 'expired'])
      expect(keysOf('pt').has(`void.status.${status}`), status).toBe(true);
  });

  it('a sale without the card present: every state, every prompt of the typing and every CNP_ refusal, in both languages', () => {
    for (const lang of ['pt', 'en'] as const) {
      for (const state of CNP_STATES) expect(keysOf(lang).has(`cnp.state.${state}`), `${lang} ${state}`).toBe(true);
      for (const prompt of CNP_PROMPT_CODES)
        expect(keysOf(lang).has(`cnp.prompt.${prompt}`), `${lang} ${prompt}`).toBe(true);
      const codes = Object.keys(ERROR_CODES).filter((c) => c.startsWith('CNP_'));
      expect(codes.length).toBeGreaterThanOrEqual(7);
      for (const code of [...codes, 'IDEMPOTENCY_KEY_REUSED', 'SUPERVISOR_REQUIRED', 'NOT_ALLOWED', 'PINPAD_OPENING'])
        expect(keysOf(lang).has(`error.${code}`), `${lang} ${code}`).toBe(true);
    }
  });

  it('every alarm code the daemon raises has a text (codes read from the source)', () => {
    const text = sources().join('\n');
    const codes = new Set(
      [
        ...text.matchAll(/code: '([A-Z][A-Z0-9_]+)'/g),
        ...text.matchAll(/this\.alarm\([^,]+, '([A-Z][A-Z0-9_]+)'/g),
      ].map((m) => m[1] as string),
    );
    const alarms = [...codes].filter((c) =>
      /NEEDS_REFUND|DEAD_LETTER|LATE_PAYMENT|STOOD|ANOMALY|RECEIPT_FAILED|PRINTER_|PINPAD_GONE|CLOCK_OFF|UNDO_NEAR_CLOSE/.test(
        c,
      ),
    );
    expect(alarms.length).toBeGreaterThanOrEqual(18);
    for (const code of alarms) expect(keysOf('pt').has(`alarm.${code}`), code).toBe(true);
  });

  it('every problem health lists reads in Portuguese, with its numbers; an unknown one says so', () => {
    i18n.setLang('pt');
    const cases: [string, string][] = [
      ['pinpad: no secure session', 'Pinpad: sem sessão segura'],
      [
        'pinpad: opening the secure session (card sales answer 503 PINPAD_OPENING)',
        'Pinpad: abrindo a sessão segura (vendas com cartão aguardam)',
      ],
      ['pinpad: disconnected', 'Pinpad: desconectado'],
      ['pinpad: no DUKPT PIN key in slot 3', 'Pinpad: sem chave DUKPT de senha no slot 3'],
      ['pinpad: no DUKPT data key in slot 7', 'Pinpad: sem chave DUKPT de dados no slot 7'],
      ['printer: offline', 'Impressora: não responde'],
      ['printer: paper out', 'Impressora: sem papel'],
      ['printer: cover open', 'Impressora: tampa aberta'],
      ['acquirer: unreachable', 'Adquirente: sem conexão'],
      ['outbox: 2 dead letters', 'Fila de envio: 2 envio(s) recusado(s) em definitivo'],
      ['alarm: VOID_STOOD', 'Alarme: Um cancelamento não pôde ser desfeito e ficou valendo'],
    ];
    for (const [problem, pt] of cases) expect(i18n.problemText(problem)).toBe(pt);
    // Every problem string src/api/health.ts can write is one of the cases above.
    const health = readFileSync(path.join(SRC, 'api/health.ts'), 'utf8');
    const written = [
      ...health.matchAll(/(?:push|\?)\((?:[^)]*\? )?['`]([a-z]+: [^'`]+)['`]/g),
      ...health.matchAll(/['`]((?:pinpad|printer|acquirer|outbox|alarm): [^'`]+)['`]/g),
    ].map((m) => m[1] as string);
    expect(written.length).toBeGreaterThanOrEqual(9);
    for (const w of written) {
      const shape = new RegExp(`^${w.replace(/[.*+?^()|[\]\\]/g, '\\$&').replace(/\$\{[^}]+\}/g, '.+')}$`);
      expect(
        cases.some(([p]) => shape.test(p)),
        w,
      ).toBe(true);
    }
    expect(i18n.problemText('flux capacitor: low')).toBe('Problema não identificado (flux capacitor: low)');
  });

  it('alarms and refusals by their code, with the context the alarm carries', () => {
    i18n.setLang('pt');
    expect(i18n.alarmText({ code: 'NEEDS_REFUND', context: { merchantOrderId: '263260010360003' } })).toBe(
      'Pagamento 263260010360003 ficou cobrado: devolva o dinheiro (cancelamento quando o cliente voltar)',
    );
    expect(i18n.alarmText({ code: 'NEEDS_REFUND' })).toBe(
      'Pagamento ficou cobrado: devolva o dinheiro (cancelamento quando o cliente voltar)',
    );
    expect(i18n.alarmText({ code: 'SOMETHING_NEW' })).toBe('Alarme do terminal SOMETHING_NEW');
    expect(i18n.errorText({ code: 'SUPERVISOR_REQUIRED' })).toBe('Senha do supervisor ausente ou incorreta');
    expect(i18n.errorText({ code: 'INVALID_FIELD', field: 'amount' })).toBe('Dado inválido: amount');
    expect(i18n.statusText('needs-refund')).toBe('estorno pendente');
    i18n.setLang('en');
    expect(i18n.statusText('needs-refund')).toBe('refund pending');
    i18n.setLang('pt');
  });

  it('times are business time (America/Sao_Paulo), whatever the zone the page runs in', () => {
    expect(i18n.hostTime('2026-11-25T14:05:09Z')).toBe('11:05:09');
    expect(i18n.hostDay('2026-11-26T02:59:59Z')).toBe('2026-11-25');
    expect(i18n.hostDay('2026-11-26T03:00:00Z')).toBe('2026-11-26');
  });
});
