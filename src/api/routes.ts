import type { IncomingMessage, ServerResponse } from 'node:http';

/** The methods the API serves. */
export type Method = 'GET' | 'POST' | 'DELETE';

/** What a route's handler is given: the request, the answer, the path parameters and the query. */
export interface RouteCall {
  req: IncomingMessage;
  res: ServerResponse;
  params: Record<string, string>;
  query: URLSearchParams;
}

/**
 * One route of the API. `path` is an OpenAPI path template (`/v1/payments/{id}`): the router
 * matches on it and the OpenAPI test lists the routes from the same table, so a route added
 * here without documentation fails that test.
 */
export interface Route<D> {
  method: Method;
  path: string;
  /** False only for the OpenAPI document and its page (`/v1/docs`); every other route needs the bearer token. */
  auth?: boolean;
  /** Also opened by a single-use `?ticket=` from `POST /v1/events/ticket` instead of the header (EventSource). */
  ticket?: boolean;
  handle(call: RouteCall, deps: D): Promise<void> | void;
}

/**
 * Matches `pathname` against a path template segment by segment; the `{name}` segments become
 * parameters. An empty segment matches nothing: `/v1//health` and `/v1/health/` are not `/v1/health`.
 */
export function matchPath(template: string, pathname: string): Record<string, string> | undefined {
  const want = template.split('/');
  const got = pathname.split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i] as string;
    const g = got[i] as string;
    if (w.startsWith('{') && w.endsWith('}')) {
      if (g === '') return undefined;
      params[w.slice(1, -1)] = g;
    } else if (w !== g) return undefined;
  }
  return params;
}
