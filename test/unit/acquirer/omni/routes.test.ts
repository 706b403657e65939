import { describe, expect, it } from 'vitest';
import { ROUTES, matchRoute, routePath } from '../../../../src/acquirer/omni/routes.js';

const CONECTA_PT = '_i18n/pt/_posts/api-ecommerce-cielo/2019-07-10-cielo-conecta.md';
const CONECTA_EN = '_i18n/en/_posts/api-ecommerce-cielo/2019-07-10-cielo-conecta.md';
const ECOMMERCE = '_i18n/pt/_posts/api-ecommerce-cielo/2003-03-03-cielo-ecommerce.md';
const QR_V4 = '_i18n/pt/_posts/qrcode/2021-10-19-qrcode-v4.md';

/**
 * The contract: each path and base address as the acquirer's public manual writes it
 * (DeveloperCielo/developercielo.github.io, file and line below), never as the sandbox serves it.
 * Bases: the Conecta page's authorization (pt 60-62), parameters (pt 108), registration
 * (`omnichannelcadastro…`, pt 69 and 9880-9882), requests (`api…`) and queries (`apiquery…`, e.g.
 * the query endpoints at pt 7700-7702); the e-commerce page's "Transacional" and "Consultas"
 * hosts (ecommerce 45-46: `GET /1/sales/{id}` and `GET /1/cardBin` on the query host); the QR
 * manual v4's wallet host (17-18).
 */
const CONTRACT: [keyof typeof ROUTES, string, string, string, string][] = [
  ['omniToken', 'POST', 'auth', '/oauth2/token', `${CONECTA_PT}:73`],
  ['saleCreate', 'POST', 'request', '/1/physicalSales', `${CONECTA_PT}:1327`],
  ['saleGet', 'GET', 'query', '/1/physicalSales/{PaymentId}', `${CONECTA_PT}:7700`],
  ['saleGetByOrderId', 'GET', 'query', '/1/physicalSales/MerchantOrderId/{MerchantOrderId}', `${CONECTA_PT}:7702`],
  ['saleConfirm', 'PUT', 'request', '/1/physicalSales/{PaymentId}/confirmation', `${CONECTA_PT}:7590`],
  ['saleUndo', 'DELETE', 'request', '/1/physicalSales/{PaymentId}', `${CONECTA_PT}:7358`],
  ['saleUndoByOrderId', 'DELETE', 'request', '/1/physicalSales/orderId/{MerchantOrderId}', `${CONECTA_PT}:7460`],
  ['voidCreate', 'POST', 'request', '/1/physicalSales/{PaymentId}/voids', `${CONECTA_PT}:8001`],
  ['voidConfirm', 'PUT', 'request', '/1/physicalSales/{PaymentId}/voids/{VoidId}/confirmation', `${CONECTA_PT}:8584`],
  ['voidUndo', 'DELETE', 'request', '/1/physicalSales/{PaymentId}/voids/{VoidId}', `${CONECTA_EN}:1882`],
  [
    'voidUndoByMerchantVoidId',
    'DELETE',
    'request',
    '/1/physicalSales/{PaymentId}/voids/merchantVoidId/{MerchantVoidId}',
    `${CONECTA_EN}:1918`,
  ],
  ['voidGet', 'GET', 'query', '/1/physicalSales/{PaymentId}/voids/{VoidId}', `${CONECTA_PT}:7961`],
  ['initialization', 'GET', 'parameters', '/initialization/{SubordinatedMerchantId}/{TerminalId}', `${CONECTA_PT}:125`],
  ['initializationTechnical', 'POST', 'parameters', '/initialization', `${CONECTA_PT}:491`],
  ['merchantCreate', 'POST', 'registration', '/merchants', `${CONECTA_PT}:9535`],
  ['merchantGet', 'GET', 'registration', '/merchants/{SubordinatedMerchantId}', `${CONECTA_PT}:9616`],
  ['merchantUpdate', 'PUT', 'registration', '/merchants/{SubordinatedMerchantId}', `${CONECTA_PT}:9797`],
  ['terminalCreate', 'POST', 'registration', '/terminals', `${CONECTA_PT}:9890`],
  ['ecommerceSaleCreate', 'POST', 'ecommerce', '/1/sales', `${ECOMMERCE}:2371`],
  ['ecommerceSaleGet', 'GET', 'ecommerceQuery', '/1/sales/{PaymentId}', `${ECOMMERCE}:5484`],
  ['ecommerceSaleVoid', 'PUT', 'ecommerce', '/1/sales/{PaymentId}/void', `${ECOMMERCE}:1952`],
  [
    'ecommerceCardBin',
    'GET',
    'ecommerceQuery',
    '/1/cardBin/{Bin}',
    `${ECOMMERCE}:490 (and 494: apiquerysandbox…/1/cardBin/411011)`,
  ],
  ['ecommerceSaleCapture', 'PUT', 'ecommerce', '/1/sales/{PaymentId}/capture', `${ECOMMERCE}:6099`],
  ['ecommerceSalesByOrderId', 'GET', 'ecommerceQuery', '/1/sales', `${ECOMMERCE}:5869, 5873 (?merchantOrderId=)`],
  [
    'ecommerceSaleVoidByOrderId',
    'PUT',
    'ecommerce',
    '/1/sales/OrderId/{MerchantOrderId}/void',
    `${ECOMMERCE}:6209 ("Cancelamento via MerchantOrderId", 6207: the newest sale under it, 6197)`,
  ],
  ['ecommerceCardSave', 'POST', 'ecommerce', '/1/card', `${ECOMMERCE}:3081 (written /1/card/; 3095)`],
  [
    'ecommerceRecurrentGet',
    'GET',
    'ecommerceQuery',
    '/1/RecurrentPayment/{RecurrentPaymentId}',
    `${ECOMMERCE}:5936, 5940 (apiquerysandbox…)`,
  ],
  ['walletTokenJson', 'POST', 'wallet', '/v2/oauth/access-token', `${QR_V4}:47`],
  ['walletTokenForm', 'POST', 'wallet', '/v2/oauth/token', `${QR_V4}:92`],
  ['walletPublicKey', 'GET', 'wallet', '/padraoq/v1/publicKey', `${QR_V4}:162`],
  ['walletParseQr', 'GET', 'wallet', '/padraoq/v1/parsedQRCode', `${QR_V4}:396`],
  ['walletCardPayment', 'POST', 'wallet', '/padraoq/v1/payment/card', `${QR_V4}:227`],
];

describe('routes: the one table of acquirer paths', () => {
  it.each(CONTRACT)('%s is %s {%s}%s (%s)', (name, method, base, path) => {
    expect(ROUTES[name]).toMatchObject({ method, base, path });
  });

  it('has exactly the contract routes', () => {
    expect(Object.keys(ROUTES).sort()).toEqual(CONTRACT.map((c) => c[0]).sort());
  });

  it('never marks a create that charges as safe to repeat', () => {
    for (const n of [
      'saleCreate',
      'voidCreate',
      'ecommerceSaleCreate',
      'ecommerceSaleCapture',
      'walletCardPayment',
    ] as const) {
      expect(ROUTES[n].safeToRepeat).toBe(false);
    }
  });

  it('fills and encodes parameters', () => {
    expect(routePath('saleUndoByOrderId', { MerchantOrderId: '263290010000123' })).toBe(
      '/1/physicalSales/orderId/263290010000123',
    );
    expect(routePath('saleGet', { PaymentId: 'a/b?c' })).toBe('/1/physicalSales/a%2Fb%3Fc');
    expect(() => routePath('saleGet', { PaymentId: '' })).toThrow(/PaymentId is missing/);
  });

  it('matches every route back from its own path', () => {
    for (const [name, method] of CONTRACT) {
      const filled = ROUTES[name].path.replace(/\{([A-Za-z]+)\}/g, (_m, k: string) => `x${k}1`);
      const m = matchRoute(method, filled);
      expect(m && 'name' in m ? m.name : m).toBe(name);
      const slash = matchRoute(method, `${filled}/`);
      expect(slash && 'name' in slash ? slash.name : slash).toBe(name);
    }
  });

  it('refuses DELETE on the query path /MerchantOrderId/ (only GET is allowed there)', () => {
    expect(matchRoute('DELETE', '/1/physicalSales/MerchantOrderId/123')).toEqual({ allowed: ['GET'] });
    expect(matchRoute('DELETE', '/1/physicalSales/orderId/123')).toEqual({
      name: 'saleUndoByOrderId',
      params: { MerchantOrderId: '123' },
    });
  });

  it('prefers the literal segment over a parameter', () => {
    expect(matchRoute('DELETE', '/1/physicalSales/p1/voids/merchantVoidId/9')).toEqual({
      name: 'voidUndoByMerchantVoidId',
      params: { PaymentId: 'p1', MerchantVoidId: '9' },
    });
    expect(matchRoute('GET', '/nothing/here')).toBeUndefined();
  });
});
