/**
 * Every path the terminal calls at the acquirer, in one table (docs/acquirer.md, "Routes"), each
 * under the base address the acquirer's manual gives it. The clients build URLs from it; a
 * contract test (test/unit/acquirer/omni/routes.test.ts) pins each path and base to the manual's page
 * and line. The sandbox host keeps its own table (src/sandbox/routes.ts), so a misreading here shows there.
 */

import { OmniposError } from '../../core/index.js';

/** Which configured base address a route lives under. */
export type RouteBase =
  'auth' | 'request' | 'query' | 'parameters' | 'registration' | 'ecommerce' | 'ecommerceQuery' | 'wallet';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RouteSpec {
  readonly method: HttpMethod;
  readonly base: RouteBase;
  /** Path template; `{Name}` marks a path parameter. */
  readonly path: string;
  /** True when repeating the request cannot charge twice (queries, token). Never true for a sale or void create. */
  readonly safeToRepeat: boolean;
  /** The OAuth scope family the omni host requires, if any. */
  readonly scope?: 'transactional' | 'registration';
}

export const ROUTES = {
  // omni: OAuth (authorization address)
  omniToken: { method: 'POST', base: 'auth', path: '/oauth2/token', safeToRepeat: true },
  // omni: sales (requests and queries addresses)
  saleCreate: {
    method: 'POST',
    base: 'request',
    path: '/1/physicalSales',
    safeToRepeat: false,
    scope: 'transactional',
  },
  saleGet: {
    method: 'GET',
    base: 'query',
    path: '/1/physicalSales/{PaymentId}',
    safeToRepeat: true,
    scope: 'transactional',
  },
  saleGetByOrderId: {
    method: 'GET',
    base: 'query',
    path: '/1/physicalSales/MerchantOrderId/{MerchantOrderId}',
    safeToRepeat: true,
    scope: 'transactional',
  },
  saleConfirm: {
    method: 'PUT',
    base: 'request',
    path: '/1/physicalSales/{PaymentId}/confirmation',
    safeToRepeat: false,
    scope: 'transactional',
  },
  saleUndo: {
    method: 'DELETE',
    base: 'request',
    path: '/1/physicalSales/{PaymentId}',
    safeToRepeat: false,
    scope: 'transactional',
  },
  saleUndoByOrderId: {
    method: 'DELETE',
    base: 'request',
    path: '/1/physicalSales/orderId/{MerchantOrderId}',
    safeToRepeat: false,
    scope: 'transactional',
  },
  // omni: voids
  voidCreate: {
    method: 'POST',
    base: 'request',
    path: '/1/physicalSales/{PaymentId}/voids',
    safeToRepeat: false,
    scope: 'transactional',
  },
  voidConfirm: {
    method: 'PUT',
    base: 'request',
    path: '/1/physicalSales/{PaymentId}/voids/{VoidId}/confirmation',
    safeToRepeat: false,
    scope: 'transactional',
  },
  voidUndo: {
    method: 'DELETE',
    base: 'request',
    path: '/1/physicalSales/{PaymentId}/voids/{VoidId}',
    safeToRepeat: false,
    scope: 'transactional',
  },
  voidUndoByMerchantVoidId: {
    method: 'DELETE',
    base: 'request',
    path: '/1/physicalSales/{PaymentId}/voids/merchantVoidId/{MerchantVoidId}',
    safeToRepeat: false,
    scope: 'transactional',
  },
  voidGet: {
    method: 'GET',
    base: 'query',
    path: '/1/physicalSales/{PaymentId}/voids/{VoidId}',
    safeToRepeat: true,
    scope: 'transactional',
  },
  // omni: initialization (parameters address)
  initialization: {
    method: 'GET',
    base: 'parameters',
    path: '/initialization/{SubordinatedMerchantId}/{TerminalId}',
    safeToRepeat: true,
    scope: 'transactional',
  },
  initializationTechnical: {
    method: 'POST',
    base: 'parameters',
    path: '/initialization',
    safeToRepeat: true,
    scope: 'transactional',
  },
  // omni: merchant and terminal registration
  merchantCreate: {
    method: 'POST',
    base: 'registration',
    path: '/merchants',
    safeToRepeat: false,
    scope: 'registration',
  },
  merchantGet: {
    method: 'GET',
    base: 'registration',
    path: '/merchants/{SubordinatedMerchantId}',
    safeToRepeat: true,
    scope: 'registration',
  },
  merchantUpdate: {
    method: 'PUT',
    base: 'registration',
    path: '/merchants/{SubordinatedMerchantId}',
    safeToRepeat: true,
    scope: 'registration',
  },
  terminalCreate: {
    method: 'POST',
    base: 'registration',
    path: '/terminals',
    safeToRepeat: false,
    scope: 'registration',
  },
  // e-commerce JSON API (Pix and QR code sales, BIN lookup): MerchantId/MerchantKey headers;
  // requests on the transactional host, queries (sale, card BIN) on the query host
  ecommerceSaleCreate: { method: 'POST', base: 'ecommerce', path: '/1/sales', safeToRepeat: false },
  ecommerceSaleGet: { method: 'GET', base: 'ecommerceQuery', path: '/1/sales/{PaymentId}', safeToRepeat: true },
  ecommerceSaleVoid: { method: 'PUT', base: 'ecommerce', path: '/1/sales/{PaymentId}/void', safeToRepeat: false },
  ecommerceCardBin: { method: 'GET', base: 'ecommerceQuery', path: '/1/cardBin/{Bin}', safeToRepeat: true },
  // card-not-present credit sales: capture of a pre-authorization, and the query by order id (`?merchantOrderId=`)
  ecommerceSaleCapture: {
    method: 'PUT',
    base: 'ecommerce',
    path: '/1/sales/{PaymentId}/capture',
    safeToRepeat: false,
  },
  ecommerceSalesByOrderId: { method: 'GET', base: 'ecommerceQuery', path: '/1/sales', safeToRepeat: true },
  ecommerceSaleVoidByOrderId: {
    method: 'PUT',
    base: 'ecommerce',
    path: '/1/sales/OrderId/{MerchantOrderId}/void',
    safeToRepeat: false,
  },
  // saved cards (`POST /1/card`, ecom:3081) and the scheduled recurrence's query (ecom:5934, on the query host)
  ecommerceCardSave: { method: 'POST', base: 'ecommerce', path: '/1/card', safeToRepeat: false },
  ecommerceRecurrentGet: {
    method: 'GET',
    base: 'ecommerceQuery',
    path: '/1/RecurrentPayment/{RecurrentPaymentId}',
    safeToRepeat: true,
  },
  // wallet-facing QR API (000)
  walletTokenJson: { method: 'POST', base: 'wallet', path: '/v2/oauth/access-token', safeToRepeat: true },
  walletTokenForm: { method: 'POST', base: 'wallet', path: '/v2/oauth/token', safeToRepeat: true },
  walletPublicKey: { method: 'GET', base: 'wallet', path: '/padraoq/v1/publicKey', safeToRepeat: true },
  walletParseQr: { method: 'GET', base: 'wallet', path: '/padraoq/v1/parsedQRCode', safeToRepeat: true },
  walletCardPayment: { method: 'POST', base: 'wallet', path: '/padraoq/v1/payment/card', safeToRepeat: false },
} as const satisfies Record<string, RouteSpec>;

export type RouteName = keyof typeof ROUTES;

/** The names of a route's path parameters, e.g. `PaymentId`. */
export type RouteParams<N extends RouteName> = (typeof ROUTES)[N]['path'] extends infer P extends string
  ? ParamsOf<P>
  : never;

type ParamsOf<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? { [K in Name | keyof ParamsOf<Rest>]: string }
  : Record<never, string>;

const PARAM = /\{([A-Za-z]+)\}/g;

/**
 * The route's path with each parameter filled in and percent-encoded. A parameter that is
 * missing or empty, or that would escape its segment, is a programming error.
 */
export function routePath<N extends RouteName>(name: N, params: RouteParams<N>): string {
  const values = params as Record<string, string>;
  return ROUTES[name].path.replace(PARAM, (_m, key: string) => {
    const v = values[key];
    if (typeof v !== 'string' || v === '') {
      throw new OmniposError('INVALID_ARGUMENT', `route ${name}: parameter ${key} is missing`, {
        route: name,
        parameter: key,
      });
    }
    return encodeURIComponent(v);
  });
}

/** A compiled matcher for the sandbox: method + path → route name and parameters. */
export interface RouteMatch {
  name: RouteName;
  params: Record<string, string>;
}

interface Compiled {
  name: RouteName;
  method: HttpMethod;
  regex: RegExp;
  keys: string[];
  /** Literal segments count: more literal = more specific (tried first). */
  literal: number;
}

let compiled: Compiled[] | undefined;

function compile(): Compiled[] {
  if (compiled) return compiled;
  const out: Compiled[] = [];
  for (const [name, spec] of Object.entries(ROUTES) as [RouteName, RouteSpec][]) {
    const keys: string[] = [];
    const source = spec.path
      .split('/')
      .map((seg) => {
        const m = /^\{([A-Za-z]+)\}$/.exec(seg);
        if (m) {
          keys.push(m[1] as string);
          return '([^/]+)';
        }
        return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      })
      .join('/');
    const literal = spec.path.split('/').filter((s) => s !== '' && !s.startsWith('{')).length;
    out.push({ name, method: spec.method, regex: new RegExp(`^${source}/?$`, 'i'), keys, literal });
  }
  out.sort((a, b) => b.literal - a.literal);
  compiled = out;
  return out;
}

/**
 * Matches a request path (without query string) against the table. Returns the route, or
 * `{ allowed }` listing the methods the path accepts when only the method is wrong.
 * Path matching ignores case in literal segments and accepts one trailing slash, as the
 * manual's examples use both `/1/physicalSales` and `/1/physicalSales/`.
 */
export function matchRoute(method: string, path: string): RouteMatch | { allowed: HttpMethod[] } | undefined {
  const allowed: HttpMethod[] = [];
  let best: RouteMatch | undefined;
  let matchedLiteral = -1;
  for (const c of compile()) {
    if (c.literal < matchedLiteral) break;
    const m = c.regex.exec(path);
    if (!m) continue;
    matchedLiteral = c.literal;
    if (c.method !== method) {
      allowed.push(c.method);
      continue;
    }
    const params: Record<string, string> = {};
    let ok = true;
    c.keys.forEach((k, i) => {
      try {
        params[k] = decodeURIComponent(m[i + 1] as string);
      } catch {
        ok = false;
      }
    });
    if (!ok) continue;
    best = { name: c.name, params };
    break;
  }
  if (best) return best;
  return allowed.length > 0 ? { allowed } : undefined;
}
