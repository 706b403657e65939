import type { Db } from './db.js';

/** What the scenario needs of the sandbox's context: its database (a narrower type keeps context.ts free of a cycle). */
interface SandboxContext {
  readonly db: Db;
}
import { Fields, invalidFields } from './http-kit.js';

/**
 * How the host behaves where the manual shows more than one behaviour, or where the real host's
 * behaviour is a matter of timing: one scenario at a time, kept in the database (a restart keeps
 * it), set with `POST /sandbox/scenario` or the build options. Each choice names its source.
 */
export interface Scenario {
  /**
   * Which page's answers the host gives where the Portuguese and English pages differ:
   * `pt` — void create with `CancellationStatus` (CONECTA_PT 8038ff) and void confirmation as the
   *   pt example prints it, `{CancellationStatus: 4, ConfirmatinoStatus: 1, Status: 2}` (CONECTA_PT 8593-8600);
   * `en` — void create `{VoidId, Status: 10, ReturnCode: 0}` without `CancellationStatus` (CONECTA_EN 1458-1466),
   *   void confirmation with `CancellationStatus` 3 (the status table's "confirmed").
   */
  dialect: 'pt' | 'en';
  /**
   * What a query or an undo by order id gets when nothing matches: `manual` 404 `[{Code: 307}]`
   * ("Transaction not found", ECOMMERCE 7543); `318` 404 `[{Code: 318}]` ("No transaction found",
   * ECOMMERCE 7554); `empty-list` 200 `[]`; `payments-empty` 200 `{"Payments": []}`.
   */
  notFound: 'manual' | '318' | 'empty-list' | 'payments-empty';
  /**
   * The cents outcomes (CONECTA_PT 1290ff, 7338ff): `repeat` on every attempt, as the public
   * sandbox does; `first-n`: only the first `firstN` attempts per operation, then the normal answer.
   */
  outcomes: 'repeat' | 'first-n';
  firstN: number;
  /** A sale becomes visible to the query host only this long after it was made (0: at once). */
  visibilityDelayMs: number;
  /** The wallet's expired-key code: `412.001` (the payment table's form) or `001` (QR_V4 149 as printed). */
  walletKeyCode: '412.001' | '001';
  /**
   * The wallet host pays only codes it registered (QR_V4 343-345: "Não foi encontrado o registro de
   * geração do QRCode"): the e-commerce QR sales. `true` also registers the terminal-built
   * br.com.padraoq codes of the registered terminals, as an acquirer that accepts them would.
   */
  registersTerminalQr: boolean;
  /**
   * How long a code the host made (an e-commerce QR sale) stays payable at the wallet, from its 81.01:
   * 0 (default) the terminal's own validity; more to play a host that keeps it payable after the
   * terminal stops watching (its validity is unpublished, QR_V4 355).
   */
  hostQrValidityMs: number;
  /** Strict rules switched off by name (see STRICT_RULES); none by default. */
  lenient: string[];
  /**
   * The SubordinatedMerchantIds the host treats as sub-acquirers: their sales must carry
   * `Payment.PaymentFacilitator` (CONECTA_PT 2154, 2248-2259); none by default.
   */
  subAcquirers: string[];
}

/** The request rules the host checks as the manual's tables mark them; each can be switched off by name. */
export const STRICT_RULES = {
  'expiration-date': 'ExpirationDate (MM/yyyy) on every input mode (CONECTA_PT card tables: "Sim")',
  'security-code-status': 'SecurityCodeStatus on a typed sale (CONECTA_PT 1400ff: "Sim")',
  'soft-descriptor': 'SoftDescriptor of at most 13 characters, A-Z 0-9 and space (CONECTA_PT 1380ff)',
  'track-one':
    'TrackOneData (and its KSN) on a stripe sale; the example at CONECTA_PT 3035ff sends it, the table marks it "Sim"',
  'undo-emv-data': 'a chip undo carries EmvData (CONECTA_PT 7401ff)',
  'confirm-emv-tags': 'a chip confirmation carries tags 95, 9F10, 9F26, 9F27 and 9F37 (CONECTA_PT 7554)',
  'void-content-type': 'PUT /1/sales/{id}/void carries Content-Type application/json (ECOMMERCE 6295ff)',
  'qrcode-under-payment': 'an e-commerce QR sale names the QR code under Payment (Payment.QrCode…)',
} as const;
export type StrictRule = keyof typeof STRICT_RULES;

export const DEFAULT_SCENARIO: Scenario = {
  dialect: 'pt',
  notFound: 'manual',
  outcomes: 'repeat',
  firstN: 1,
  visibilityDelayMs: 0,
  walletKeyCode: '412.001',
  registersTerminalQr: false,
  hostQrValidityMs: 0,
  lenient: [],
  subAcquirers: [],
};

export function validateScenario(patch: unknown): Partial<Scenario> {
  if (!patch || typeof patch !== 'object' || Array.isArray(patch)) throw invalidFields(['body: must be a JSON object']);
  const f = new Fields(patch);
  const out: Partial<Scenario> = {};
  const known = new Set(Object.keys(DEFAULT_SCENARIO));
  for (const k of Object.keys(patch))
    if (!known.has(k)) f.problems.push(`${k}: not a scenario member; one of ${[...known].join(', ')}`);
  const d = f.string('dialect', { optional: true, oneOf: ['pt', 'en'] });
  if (d) out.dialect = d as Scenario['dialect'];
  const n = f.string('notFound', { optional: true, oneOf: ['manual', '318', 'empty-list', 'payments-empty'] });
  if (n) out.notFound = n as Scenario['notFound'];
  const o = f.string('outcomes', { optional: true, oneOf: ['repeat', 'first-n'] });
  if (o) out.outcomes = o as Scenario['outcomes'];
  const fn = f.int('firstN', { optional: true, min: 1, max: 100 });
  if (fn !== undefined) out.firstN = fn;
  const v = f.int('visibilityDelayMs', { optional: true, min: 0, max: 3_600_000 });
  if (v !== undefined) out.visibilityDelayMs = v;
  const w = f.string('walletKeyCode', { optional: true, oneOf: ['412.001', '001'] });
  if (w) out.walletKeyCode = w as Scenario['walletKeyCode'];
  const hv = f.int('hostQrValidityMs', { optional: true, min: 0, max: 7 * 86_400_000 });
  if (hv !== undefined) out.hostQrValidityMs = hv;
  const r = f.bool('registersTerminalQr', { optional: true });
  if (r !== undefined) out.registersTerminalQr = r;
  const lenient = (patch as { lenient?: unknown }).lenient;
  if (lenient !== undefined) {
    if (!Array.isArray(lenient) || !lenient.every((x) => typeof x === 'string' && x in STRICT_RULES)) {
      f.problems.push(`lenient: a list of rule names among ${Object.keys(STRICT_RULES).join(', ')}`);
    } else out.lenient = lenient as string[];
  }
  const subs = (patch as { subAcquirers?: unknown }).subAcquirers;
  if (subs !== undefined) {
    if (!Array.isArray(subs) || !subs.every((x) => typeof x === 'string'))
      f.problems.push('subAcquirers: a list of SubordinatedMerchantIds');
    else out.subAcquirers = subs.map((x) => x.toLowerCase());
  }
  f.check();
  return out;
}

/** The scenario in force. */
export function scenario(ctx: SandboxContext): Scenario {
  const row = ctx.db.prepare(`SELECT value FROM meta WHERE key = 'scenario'`).get() as { value: string } | undefined;
  return { ...DEFAULT_SCENARIO, ...(row ? (JSON.parse(row.value) as Partial<Scenario>) : {}) };
}

/** Merges a validated patch into the scenario in force. */
export function setScenario(ctx: SandboxContext, patch: Partial<Scenario>): Scenario {
  const next = { ...scenario(ctx), ...patch };
  ctx.db
    .prepare(
      `INSERT INTO meta (key, value) VALUES ('scenario', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
    )
    .run(JSON.stringify(next));
  return next;
}

/** True unless the scenario switched the rule off. */
export function strict(ctx: SandboxContext, rule: StrictRule): boolean {
  return !scenario(ctx).lenient.includes(rule);
}
