import { describe, expect, it } from 'vitest';
import { OPERATION_OF_ROUTE, omniOperationOf, ROUTES, type RouteName } from '../../../../src/acquirer/index.js';
import { HOST_OPERATIONS } from '../../../../src/engine/index.js';

/**
 * The host's latency metric is labelled by the engine's operation, not the omni route's name: the
 * omni backend maps each route (src/acquirer/omni/operations.ts), and the daemon's metrics name a
 * request by its method and path (src/main/metrics.ts, through src/factory/acquirer-backend.ts).
 */
describe('the omni routes as the engine names their operations', () => {
  it('every route has an operation of the engine', () => {
    for (const name of Object.keys(ROUTES) as RouteName[]) expect(HOST_OPERATIONS).toContain(OPERATION_OF_ROUTE[name]);
  });

  it('names a request by its method and path, path parameters filled in', () => {
    const id = '0c8e1b7a-3c1f-4a8e-9d51-0a7f2b1c9e44';
    expect(omniOperationOf('POST', '/1/physicalSales')).toBe('sale');
    expect(omniOperationOf('PUT', `/1/physicalSales/${id}/confirmation`)).toBe('confirm');
    expect(omniOperationOf('DELETE', `/1/physicalSales/${id}`)).toBe('undo');
    expect(omniOperationOf('DELETE', '/1/physicalSales/orderId/2533000010000001')).toBe('undo');
    expect(omniOperationOf('GET', '/1/physicalSales/MerchantOrderId/2533000010000001')).toBe('query');
    expect(omniOperationOf('GET', `/1/physicalSales/${id}`)).toBe('query');
    expect(omniOperationOf('POST', `/1/physicalSales/${id}/voids`)).toBe('void');
    expect(omniOperationOf('PUT', `/1/physicalSales/${id}/voids/${id}/confirmation`)).toBe('void-confirm');
    expect(omniOperationOf('DELETE', `/1/physicalSales/${id}/voids/merchantVoidId/2533000010000002`)).toBe('void-undo');
    expect(omniOperationOf('POST', '/1/sales')).toBe('charge');
    expect(omniOperationOf('GET', `/1/sales/${id}`)).toBe('charge-query');
    expect(omniOperationOf('PUT', `/1/sales/${id}/void`)).toBe('charge-void');
    expect(omniOperationOf('POST', '/oauth2/token')).toBe('token');
    expect(omniOperationOf('POST', '/initialization')).toBe('initialization');
  });

  it('a request no route knows, or a route with the wrong method, is other', () => {
    expect(omniOperationOf('GET', '/v1/health')).toBe('other');
    expect(omniOperationOf('PATCH', '/1/physicalSales')).toBe('other');
  });
});
