import type { ServerResponse } from 'node:http';
import { ApiError } from './http-kit.js';
import { UNAUTHORIZED } from './openapi-kit.js';
import { operationsOf } from './routes.js';

/** What `GET /metrics` serves: the Prometheus exposition (OpenMetrics text) the daemon renders. */
export type MetricsSource = () => Promise<{ contentType: string; body: string }>;

export interface MetricsApiDeps {
  /** `GET /metrics`'s Prometheus exposition (none: 404). */
  metrics?: MetricsSource | undefined;
}

/** `GET /metrics` (behind the token like every route): Prometheus scrapes it with `authorization: Bearer <token>`. */
export async function serveMetrics(res: ServerResponse, metrics: MetricsSource | undefined): Promise<void> {
  if (!metrics) throw new ApiError(404, 'NOT_FOUND', 'no metrics on this daemon');
  const m = await metrics();
  res.writeHead(200, {
    'content-type': m.contentType,
    'content-length': Buffer.byteLength(m.body),
    'cache-control': 'no-store',
  });
  res.end(m.body);
}

/** `GET /metrics` (the document lists it after the other areas). */
export const METRICS_OPERATIONS = [
  operationsOf<MetricsApiDeps>()({
    method: 'GET',
    path: '/metrics',
    operationId: 'getMetrics',
    tag: 'health',
    errors: [],
    summary: 'Prometheus metrics (OpenMetrics text)',
    description:
      'Payments by method and status, the outbox (pending, dead letters, oldest deadline), the acquirer latency per operation, the pinpad link (state, losses, reconnects), the printer, alarms in force, the fleet telemetry queue. Scrape with the bearer token.',
    responses: {
      '200': {
        description: 'The exposition.',
        content: { 'application/openmetrics-text': { schema: { type: 'string' } } },
      },
      '401': UNAUTHORIZED,
    },
    handle: ({ res }, deps) => serveMetrics(res, deps.metrics),
  }),
];
