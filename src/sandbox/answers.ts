import { HOST_TIME_ZONE, localTime } from '../core/index.js';
import { SANDBOX_MERCHANT } from '../../tables/sandbox-merchant.js';
import { linkTo, type SandboxContext } from './context.js';

/** The initialization version the sandbox's tables carry (13 digits, as the manual shows). */
export const INITIALIZATION_VERSION = 1763769600001;

export function nextNsu(ctx: SandboxContext): string {
  const row = ctx.db.prepare(`SELECT value FROM meta WHERE key = 'nsu'`).get() as { value: string } | undefined;
  const next = ((row ? Number(row.value) : 0) % 999_999) + 1;
  ctx.db
    .prepare(`INSERT INTO meta (key, value) VALUES ('nsu', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`)
    .run(String(next));
  return String(next).padStart(6, '0');
}

export function saleLinks(
  ctx: SandboxContext,
  paymentId: string,
  approved: boolean,
): { Method: string; Rel: string; Href: string }[] {
  const links = [{ Method: 'GET', Rel: 'self', Href: linkTo(ctx, 'saleGet', { PaymentId: paymentId }) }];
  if (approved) {
    links.push(
      { Method: 'PUT', Rel: 'confirm', Href: linkTo(ctx, 'saleConfirm', { PaymentId: paymentId }) },
      { Method: 'DELETE', Rel: 'reverse', Href: linkTo(ctx, 'saleUndo', { PaymentId: paymentId }) },
    );
  }
  return links;
}

const INPUT_METHOD: Record<string, string> = {
  Typed: 'X',
  MagStripe: 'D',
  Emv: 'C',
  ContactlessMagStripe: 'R',
  ContactlessEmv: 'R',
};

/** `ReceiptInformation` rows as the manual's answers list them. */
export function receiptInformation(
  ctx: SandboxContext,
  s: {
    nsu: string;
    at: Date;
    maskedPan: string;
    type: string;
    authorizationCode: string;
    inputMode: string;
    amount: number;
    softDescriptor?: string;
    transaction: string;
  },
): { Field: string; Label: string; Content: string }[] {
  const m = SANDBOX_MERCHANT.merchant;
  const t = localTime(s.at, HOST_TIME_ZONE);
  const d2 = (n: number): string => String(n).padStart(2, '0');
  const secs = Math.floor(t.decisecondsOfDay / 10);
  const reais = `${Math.floor(s.amount / 100)},${d2(s.amount % 100)}`;
  const rows: [string, string, string][] = [
    ['MERCHANT_NAME', 'NOME DO ESTABELECIMENTO', m.name],
    ['MERCHANT_ADDRESS', 'ENDEREÇO DO ESTABELECIMENTO', m.address],
    ['MERCHANT_CITY', 'CIDADE DO ESTABELECIMENTO', m.city],
    ['MERCHANT_STATE', 'ESTADO DO ESTABELECIMENTO', m.state],
    ['MERCHANT_CODE', 'COD.ESTAB.', m.merchantNumber],
    ['TERMINAL', 'POS', SANDBOX_MERCHANT.terminal.terminalId],
    ['NSU', 'DOC', s.nsu],
    ['DATE', 'DATA', `${d2(t.day)}/${d2(t.month)}/${d2(t.year % 100)}`],
    ['HOUR', 'HORA', `${d2(Math.floor(secs / 3600))}:${d2(Math.floor(secs / 60) % 60)}`],
    ['CARD_NUMBER', 'CARTÃO', s.maskedPan],
    ['TRANSACTION_TYPE', 'TIPO DE TRANSAÇÃO', s.transaction],
    ['AUTHORIZATION_CODE', 'AUTORIZAÇÃO', s.authorizationCode],
    ['TRANSACTION_MODE', 'MODO DA TRANSAÇÃO', 'ONL'],
    ['INPUT_METHOD', 'MODO DE ENTRADA', INPUT_METHOD[s.inputMode] ?? 'X'],
    ['CPF_CNPJ', 'CPF OU CNPJ', m.nationalId],
    ['VALUE', 'VALOR', reais],
  ];
  if (s.softDescriptor) rows.push(['SOFT_DESCRIPTOR', 'SOFT DESCRIPTOR', s.softDescriptor]);
  void ctx;
  return rows.map(([Field, Label, Content]) => ({ Field, Label, Content }));
}

/** First 6 and last 4, as the manual's receipts print the card (`541333-3511`). */
export function receiptPan(pan: string): string {
  return `${pan.slice(0, 6)}-${pan.slice(-4)}`;
}

/** A card node fit to echo: ciphertexts replaced by asterisks, the PIN block left out. */
export function maskedCardNode(card: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(card)) {
    if (k === 'PinBlock') continue;
    if (
      (k === 'TrackTwoData' || k === 'TrackOneData' || k === 'CardNumber' || k === 'EmvData') &&
      typeof v === 'string'
    ) {
      out[k] = '*'.repeat(v.length);
    } else if (k === 'SecurityCode' && typeof v === 'string') {
      out[k] = '***';
    } else if (k === 'EncryptedCardData' && v && typeof v === 'object') {
      out[k] = { ...(v as Record<string, unknown>), EncryptionType: 4 };
    } else {
      out[k] = v;
    }
  }
  return out;
}
