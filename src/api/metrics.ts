import type { ServerResponse } from 'node:http';
import { ApiError } from './http-kit.js';

/** What `GET /metrics` serves: the Prometheus exposition (OpenMetrics text) the daemon renders. */
export type MetricsSource = () => Promise<{ contentType: string; body: string }>;

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
