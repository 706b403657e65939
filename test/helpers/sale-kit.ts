import { encodePinBlock } from '../../src/crypto/index.js';
import { TEST_CARDS, type TestCard } from '../../tables/test-cards.js';
import { clearCardData } from './scan-card-data.js';
import type { E2e } from './e2e.js';

/** A test card by a piece of its name (tables/test-cards.json). */
export function testCard(name: string): TestCard {
  const c = TEST_CARDS.find((x) => x.name.includes(name));
  if (!c) throw new Error(`no test card named like ${name}`);
  return c;
}

/** What the customer does on the virtual pinpad: the card, how it is presented, the PIN, the card's own decision. */
export interface Customer {
  pan?: string;
  lastDigit?: number;
  name?: string;
  via?: 'chip' | 'contactless' | 'stripe' | 'contactless-stripe';
  action?: 'cancel' | 'nothing';
  pin?: string;
  declineAfterApproval?: boolean;
  removeEarly?: 'no' | 'at-pin' | 'before-fcx';
  /** Typed on the pinpad's keys, in order (product menu, typed card number, expiry). */
  keys?: string[];
}

/** Puts the customer in front of the virtual pinpad (every behaviour set, so nothing lingers from a case before). */
export async function present(e: E2e, c: Customer): Promise<void> {
  const { keys, ...choice } = c;
  await e.sim.control({
    cmd: 'card',
    choice: { pin: 'right', declineAfterApproval: false, removeEarly: 'no', ...choice },
  });
  for (const k of keys ?? []) await e.sim.control({ cmd: 'keys', value: k });
}

export interface Sold {
  id: number;
  merchantOrderId: string;
  view: Record<string, unknown>;
  /** The host's record of the sale, if it has one: what it still charges and whether it was confirmed. */
  host: { amount: number; status: number; confirmationStatus: number; charged: number } | undefined;
  /** Index into `e.events` when the sale was asked for. */
  since: number;
}

/** Starts a payment through the API (202) and returns its id and the event index it started at. */
export async function start(
  e: E2e,
  body: Record<string, unknown>,
): Promise<{ id: number; merchantOrderId: string; since: number }> {
  const since = e.events.length;
  const r = await e.api('POST', '/v1/payments', body);
  if (r.status !== 202) throw new Error(`POST /v1/payments answered ${r.status}: ${JSON.stringify(r.body)}`);
  return { id: Number(r.body.id), merchantOrderId: String(r.body.merchantOrderId), since };
}

/** The host's ledger row of a sale (undefined: the host never saw it). */
export async function hostSale(e: E2e, merchantOrderId: string): Promise<Sold['host']> {
  const ledger = await e.sandbox.ledger();
  const rows = ledger.sales.filter((s) => s.merchantOrderId === merchantOrderId);
  if (rows.length > 1) throw new Error(`the host holds ${rows.length} sales for ${merchantOrderId}`);
  const problems = ledger.problems.filter((p) => p.merchantOrderId === merchantOrderId);
  if (problems.length) throw new Error(`ledger problems for ${merchantOrderId}: ${JSON.stringify(problems)}`);
  return rows[0];
}

/** One whole sale: the customer at the pinpad, the API request, the end of the sale, the host's view. */
export async function sell(e: E2e, c: Customer, body: Record<string, unknown>, timeoutMs?: number): Promise<Sold> {
  await present(e, c);
  const s = await start(e, body);
  const view = await e.waitFinal(s.id, timeoutMs);
  return { ...s, view, host: await hostSale(e, s.merchantOrderId) };
}

/** The prompts a sale showed, as `code: text`. */
export function promptsOf(e: E2e, id: number): string[] {
  return e.events
    .filter((x) => x.type === 'prompt' && x.id === id)
    .map((x) => `${(x as { prompt: string }).prompt}: ${(x as { text: string }).text}`);
}

/**
 * What must never be at rest: every test card's PAN and track 2 (the shared scan), and the clear
 * ISO format 0 PIN block of each card's PIN (hex, both cases).
 */
export function clearSecrets(): string[] {
  const blocks = TEST_CARDS.map((c) =>
    Buffer.from(encodePinBlock({ format: 0, pin: c.pin, pan: c.pan })).toString('hex'),
  );
  return [...clearCardData(), ...blocks.map((b) => b.toUpperCase()), ...blocks];
}
