import { describe, expect, it } from 'vitest';
import { ROUTES, matchRoute, routePath } from '../../../src/acquirer/routes.js';

/**
 * The contract: each path as DESIGN.md ("The acquirer") and the public manual
 * (DeveloperCielo/developercielo.github.io, _i18n/pt/_posts/api-ecommerce-cielo/2019-07-10-cielo-conecta.md)
 * and the wallet document (000, "Operation / Path") write it.
 */
const CONTRACT: [keyof typeof ROUTES, string, string, string][] = [
  ['omniToken', 'POST', 'auth', '/oauth2/token'],
  ['saleCreate', 'POST', 'request', '/1/physicalSales'],
  ['saleGet', 'GET', 'query', '/1/physicalSales/{PaymentId}'],
  ['saleGetByOrderId', 'GET', 'query', '/1/physicalSales/MerchantOrderId/{MerchantOrderId}'],
  ['saleConfirm', 'PUT', 'request', '/1/physicalSales/{PaymentId}/confirmation'],
  ['saleUndo', 'DELETE', 'request', '/1/physicalSales/{PaymentId}'],
  ['saleUndoByOrderId', 'DELETE', 'request', '/1/physicalSales/orderId/{MerchantOrderId}'],
  ['voidCreate', 'POST', 'request', '/1/physicalSales/{PaymentId}/voids'],
  ['voidConfirm', 'PUT', 'request', '/1/physicalSales/{PaymentId}/voids/{VoidId}/confirmation'],
  ['voidUndo', 'DELETE', 'request', '/1/physicalSales/{PaymentId}/voids/{VoidId}'],
  ['voidUndoByMerchantVoidId', 'DELETE', 'request', '/1/physicalSales/{PaymentId}/voids/merchantVoidId/{MerchantVoidId}'],
  ['voidGet', 'GET', 'query', '/1/physicalSales/{PaymentId}/voids/{VoidId}'],
  ['initialization', 'GET', 'parameters', '/initialization/{SubordinatedMerchantId}/{TerminalId}'],
  ['initializationTechnical', 'POST', 'parameters', '/initialization'],
  ['merchantCreate', 'POST', 'registration', '/merchants'],
  ['merchantGet', 'GET', 'registration', '/merchants/{SubordinatedMerchantId}'],
  ['merchantUpdate', 'PUT', 'registration', '/merchants/{SubordinatedMerchantId}'],
  ['terminalCreate', 'POST', 'registration', '/terminals'],
  ['ecommerceSaleCreate', 'POST', 'ecommerce', '/1/sales'],
  ['ecommerceSaleGet', 'GET', 'ecommerce', '/1/sales/{PaymentId}'],
  ['ecommerceSaleVoid', 'PUT', 'ecommerce', '/1/sales/{PaymentId}/void'],
  ['ecommerceCardBin', 'GET', 'ecommerce', '/1/cardBin/{Bin}'],
  ['walletTokenJson', 'POST', 'wallet', '/v2/oauth/access-token'],
  ['walletTokenForm', 'POST', 'wallet', '/v2/oauth/token'],
  ['walletPublicKey', 'GET', 'wallet', '/padraoq/v1/publicKey'],
  ['walletParseQr', 'GET', 'wallet', '/padraoq/v1/parsedQRCode'],
  ['walletCardPayment', 'POST', 'wallet', '/padraoq/v1/payment/card'],
];

describe('routes: the one table of acquirer paths', () => {
  it.each(CONTRACT)('%s is %s {%s}%s', (name, method, base, path) => {
    expect(ROUTES[name]).toMatchObject({ method, base, path });
  });

  it('has exactly the contract routes', () => {
    expect(Object.keys(ROUTES).sort()).toEqual(CONTRACT.map((c) => c[0]).sort());
  });

  it('never marks a create that charges as safe to repeat', () => {
    for (const n of ['saleCreate', 'voidCreate', 'ecommerceSaleCreate', 'walletCardPayment'] as const) {
      expect(ROUTES[n].safeToRepeat).toBe(false);
    }
  });

  it('fills and encodes parameters', () => {
    expect(routePath('saleUndoByOrderId', { MerchantOrderId: '263290010000123' })).toBe('/1/physicalSales/orderId/263290010000123');
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
    expect(matchRoute('DELETE', '/1/physicalSales/orderId/123')).toEqual({ name: 'saleUndoByOrderId', params: { MerchantOrderId: '123' } });
  });

  it('prefers the literal segment over a parameter', () => {
    expect(matchRoute('DELETE', '/1/physicalSales/p1/voids/merchantVoidId/9')).toEqual({
      name: 'voidUndoByMerchantVoidId',
      params: { PaymentId: 'p1', MerchantVoidId: '9' },
    });
    expect(matchRoute('GET', '/nothing/here')).toBeUndefined();
  });
});
