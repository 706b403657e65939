import type { ReceiptInformationRow, ReceiptSource } from '../../src/receipt/index.js';

/** Rows shaped as the sandbox host sends them (src/sandbox/answers.ts), for a merchant with accents in its data. */
export function rows(over: Partial<Record<string, string>> = {}): ReceiptInformationRow[] {
  const base: [string, string, string][] = [
    ['MERCHANT_NAME', 'NOME DO ESTABELECIMENTO', 'PADARIA SÃO JOÃO'],
    ['MERCHANT_ADDRESS', 'ENDEREÇO DO ESTABELECIMENTO', 'AV. BRASÍLIA, 1500 - 1º ANDAR'],
    ['MERCHANT_CITY', 'CIDADE DO ESTABELECIMENTO', 'MACEIÓ'],
    ['MERCHANT_STATE', 'ESTADO DO ESTABELECIMENTO', 'AL'],
    ['MERCHANT_CODE', 'COD.ESTAB.', '1020304050607080'],
    ['TERMINAL', 'POS', '42004201'],
    ['NSU', 'DOC', '000123'],
    ['DATE', 'DATA', '22/11/26'],
    ['HOUR', 'HORA', '10:05'],
    ['CARD_NUMBER', 'CARTÃO', '541333-3511'],
    ['TRANSACTION_TYPE', 'TIPO DE TRANSAÇÃO', 'VENDA'],
    ['AUTHORIZATION_CODE', 'AUTORIZAÇÃO', 'A1B2C3'],
    ['TRANSACTION_MODE', 'MODO DA TRANSAÇÃO', 'ONL'],
    ['INPUT_METHOD', 'MODO DE ENTRADA', 'C'],
    ['CPF_CNPJ', 'CPF OU CNPJ', '11222333000181'],
    ['VALUE', 'VALOR', '10,00'],
  ];
  return base.map(([Field, Label, Content]) => ({ Field, Label, Content: over[Field] ?? Content }));
}

export function source(over: Partial<ReceiptSource> = {}): ReceiptSource {
  return {
    kind: 'sale',
    environment: 'sandbox',
    paymentType: 'credit',
    amount: 1000,
    installments: 1,
    receiptInformation: rows(),
    printMessages: [],
    merchantOrderId: '263260010000123',
    cvm: 'pin',
    ...over,
  };
}

/** Every receipt kind the terminal prints for a card. */
export const KINDS: [string, Partial<ReceiptSource>, string][] = [
  ['credit, à vista', {}, 'CRÉDITO À VISTA'],
  ['credit, 3 installments by the store', { installments: 3, interest: 'ByMerchant' }, 'CRÉDITO PARCELADO LOJA'],
  ['credit, 6 installments by the issuer', { installments: 6, interest: 'ByIssuer' }, 'CRÉDITO PARCELADO EMISSOR'],
  ['debit', { paymentType: 'debit' }, 'DÉBITO À VISTA'],
  ['voucher', { paymentType: 'voucher' }, 'VOUCHER'],
  ['void of a credit sale', { kind: 'void' }, 'CANCELAMENTO DE CRÉDITO'],
  ['void of a debit sale', { kind: 'void', paymentType: 'debit' }, 'CANCELAMENTO DE DÉBITO'],
  ['signature on the merchant copy', { cvm: 'signature' }, 'CRÉDITO À VISTA'],
  ["a wallet paying the terminal's QR code", { paymentType: 'wallet-qr', cvm: 'none' }, 'PAGAMENTO POR QR CODE'],
  [
    'a Pix payment',
    {
      paymentType: 'pix',
      cvm: 'none',
      receiptInformation: rows({ CARD_NUMBER: '', INPUT_METHOD: '' }).concat([
        { Field: 'PIX_E2E', Label: 'ID PIX', Content: 'E00038166202611221305abcdef12345' },
      ]),
    },
    'PAGAMENTO PIX',
  ],
  [
    'a Pix refund',
    { paymentType: 'pix', kind: 'void', cvm: 'none', receiptInformation: rows({ CARD_NUMBER: '' }) },
    'DEVOLUÇÃO PIX',
  ],
];
