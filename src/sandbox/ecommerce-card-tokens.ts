import { newUuid, type SandboxContext } from './context.js';
import { apiError, apiErrors, CODE, fieldCode } from './errors.js';
import { Fields, get, objectBody, type Answer, type SandboxRequest } from './http-kit.js';
import { requireMerchant } from './ecommerce-merchant.js';

/**
 * Saved cards of the e-commerce API (ECOMMERCE = the e-commerce page; each rule cites its line):
 * `POST /1/card` saves a card alone (3075-3131), `SaveCard` on a sale saves the card it charged
 * (3149-3153, its answer 3351-3352), and a sale names a saved card by its `CardToken` (3471-3535).
 * The host keeps what a later sale needs to answer as the page shows (the masked number, the holder,
 * the expiry, the brand), never the whole number: the model's outcome is chosen by the last digit
 * (ECOMMERCE:397), which the mask keeps.
 */

export interface SavedCard {
  token: string;
  masked: string;
  holder: string;
  expiry: string;
  brand: string;
}

/** "455187******0183" (ECOMMERCE:817): the first 6 and last 4 digits. */
export function maskCard(pan: string): string {
  return `${pan.slice(0, 6)}${'*'.repeat(Math.max(0, pan.length - 10))}${pan.slice(-4)}`;
}

/** ECOMMERCE:3117 "Visa / Master / Amex / Elo / Aura / JCB / Diners / Discover" (the sale's list adds Hipercard, 764). */
export const SAVE_CARD_BRANDS = ['Visa', 'Master', 'Amex', 'Elo', 'Aura', 'JCB', 'Diners', 'Discover'] as const;

/** "Guid 36, xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" (ECOMMERCE:3147, 3531). */
export const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** Keeps a card and answers its new token. */
export function rememberCard(ctx: SandboxContext, card: Omit<SavedCard, 'token'>): string {
  const token = newUuid();
  ctx.db
    .prepare(
      `INSERT INTO card_tokens (card_token, masked, holder, expiry, brand, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
    )
    .run(token, card.masked, card.holder, card.expiry, card.brand, ctx.clock.now().getTime());
  return token;
}

/** The card a token names; a token the store does not hold is 130 "Could not get Credit Card" (ECOMMERCE:7438). */
export function savedCard(ctx: SandboxContext, token: string): SavedCard {
  const row = ctx.db
    .prepare(`SELECT card_token AS token, masked, holder, expiry, brand FROM card_tokens WHERE card_token = ?`)
    .get(token.toLowerCase()) as SavedCard | undefined;
  if (!row) throw apiError(400, CODE.cardNotFoundByToken, 'no card under this CardToken');
  return row;
}

/**
 * `SaveCard` as the page's examples send it: a JSON boolean (821, 3351), or the strings "true" and
 * "false" (615, 3234); absent is false (763: "Não (Default false)").
 */
export function flag(f: Fields, path: string): boolean {
  const v = get(f.obj, path);
  if (v === undefined || v === null) return false;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string' && /^(true|false)$/i.test(v)) return v.toLowerCase() === 'true';
  f.problems.push(`${path}: must be true or false`);
  return false;
}

/**
 * `POST /1/card` (ECOMMERCE:3081-3113). The example names the buyer `CustomerName` (3085), the
 * table `Name` (3113): either is taken, one is required (255). The table's sizes: the number at most
 * 16 digits (3114; 128 "Card Number length exceeded", 7436), the holder 25 (3115), `MM/YYYY` (3116),
 * the brand among eight (3117). Answer: the `CardToken` and its link on the query host (3121-3131).
 */
export function saveCard(ctx: SandboxContext, req: SandboxRequest): Answer {
  requireMerchant(req);
  const body = objectBody(req);
  const f = new Fields(body);
  const named = body.CustomerName !== undefined ? 'CustomerName' : 'Name';
  f.string(named, { re: /^.{1,255}$/, hint: 'at most 255 characters' });
  const rawNumber = get(body, 'CardNumber');
  const longNumber = typeof rawNumber === 'string' && /^\d{17,}$/.test(rawNumber);
  const number = longNumber
    ? undefined
    : f.string('CardNumber', { re: /^\d{13,16}$/, hint: 'must be 13 to 16 digits' });
  const holder = f.string('Holder', { re: /^[A-Za-z ]{1,25}$/, hint: 'at most 25 letters, no accents' });
  const expiry = f.string('ExpirationDate', { re: /^(0[1-9]|1[0-2])\/\d{4}$/, hint: 'must be MM/YYYY' });
  const brand = f.string('Brand', { oneOf: SAVE_CARD_BRANDS });
  const items = f.problems.map((p) => ({
    code: p.startsWith(`${named}:`) ? CODE.customerNameRequired : fieldCode(p),
    detail: p,
  }));
  if (longNumber) items.push({ code: CODE.cardNumberLength, detail: 'CardNumber: at most 16 digits' });
  if (items.length > 0) throw apiErrors(400, items);
  const token = rememberCard(ctx, {
    masked: maskCard(number as string),
    holder: holder as string,
    expiry: expiry as string,
    brand: brand as string,
  });
  return {
    status: 201,
    body: {
      CardToken: token,
      Links: { Method: 'GET', Rel: 'self', Href: `${ctx.publicUrl('ecommerceQueries')}/1/card/${token}` },
    },
  };
}
