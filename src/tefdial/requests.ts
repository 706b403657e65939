import type { TefDialFields } from './codec.js';

/**
 * What a PDV's request asks for, read from its fields (docs/tef-dial.md: each field and its
 * source). The values are checked afterwards by the API's own request schema.
 */

/**
 * `731-000` (card type) → our method, by PayGo's table (docs/tef-dial.md): 0 any / not said (the
 * default), 1 credit, 2 debit, 3 voucher. A manager asks the operator when it is 0; omnipos has no
 * screen on the PDV's machine, so 0 (or absent) is a credit sale, as before.
 */
const CARD_TYPE: Readonly<Record<string, 'credit' | 'debit' | 'voucher'>> = {
  '0': 'credit',
  '1': 'credit',
  '2': 'debit',
  '3': 'voucher',
};

/**
 * `732-000` (financing) → who pays the installments' interest, by PayGo's table: 0 any / not said,
 * 1 à vista, 2 installments financed by the issuer ("parcelado pelo Emissor": `ByIssuer`), 3 by the
 * merchant ("parcelado pelo Estabelecimento": `ByMerchant`), 4 and 5 post-dated (not taken). For
 * 0 the merchant finances, as before; 1 with installments is a contradiction and refused.
 */
const FINANCING: Readonly<Record<string, 'ByMerchant' | 'ByIssuer'>> = {
  '0': 'ByMerchant',
  '1': 'ByMerchant',
  '2': 'ByIssuer',
  '3': 'ByMerchant',
};

export class RequestFieldError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'RequestFieldError';
  }
}

function digits(req: TefDialFields, field: string, what: string, required: boolean): number | undefined {
  const v = req.get(field);
  if (v === undefined || v.trim() === '') {
    if (required) throw new RequestFieldError(field, `${field} (${what}) is required`);
    return undefined;
  }
  if (!/^\d{1,12}$/.test(v.trim())) throw new RequestFieldError(field, `${field} (${what}) must be digits`);
  return Number(v.trim());
}

/** The identification `001-000`: the PDV's number for this operation, our idempotency key. */
export function identification(req: TefDialFields): string {
  const id = (req.get('001-000') ?? '').trim();
  if (!/^\d{1,10}$/.test(id)) throw new RequestFieldError('001-000', '001-000 (identification) must be 1 to 10 digits');
  return id;
}

/** A CRT's sale: amount, method, installments and financing, as the local API's request takes them. */
export function saleRequest(req: TefDialFields): Record<string, unknown> {
  const amount = digits(req, '003-000', 'amount', true) as number;
  const currency = req.get('004-000');
  if (currency !== undefined && currency.trim() !== '0')
    throw new RequestFieldError('004-000', '004-000 (currency): only 0, the real, is taken');
  const cardType = (req.get('731-000') ?? '0').trim().replace(/^0+(?=\d)/, '');
  const method = CARD_TYPE[cardType];
  if (!method) throw new RequestFieldError('731-000', `731-000 (card type) ${cardType} is not one this terminal takes`);
  const installments = digits(req, '018-000', 'installments', false) ?? 1;
  const financing = (req.get('732-000') ?? '0').trim().replace(/^0+(?=\d)/, '');
  const interest = FINANCING[financing];
  if (!interest)
    throw new RequestFieldError('732-000', `732-000 (financing) ${financing} is not one this terminal takes`);
  if (financing === '1' && installments > 1)
    throw new RequestFieldError('732-000', `732-000 (financing) 1 is a sale a vista: 018-000 asks for ${installments}`);
  return { amount, method, installments: Math.max(installments, 1), interest, confirmation: 'ecr', receipt: false };
}

/** A CNC's reference to the sale: its NSU `012-000`, amount `003-000` and, when sent, date `022-000`. */
export function voidReference(req: TefDialFields): { nsu: string; amount: number; date: string | undefined } {
  const nsu = (req.get('012-000') ?? '').trim();
  if (!/^\d{1,20}$/.test(nsu)) throw new RequestFieldError('012-000', '012-000 (NSU of the sale) is required');
  const amount = digits(req, '003-000', 'amount', true) as number;
  const date = req.get('022-000')?.trim();
  return { nsu, amount, date: date === '' ? undefined : date };
}
