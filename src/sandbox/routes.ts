/**
 * The sandbox host's own contract: every path it serves, one table per API (one per base address),
 * each row naming the manual page and line it was read from. Written from the acquirer's public
 * manual, not from our client: the client keeps its own table (src/acquirer/omni/routes.ts) and a
 * contract test of its own, so a misreading on either side shows up as a refusal here.
 *
 * Pages (git dir /work/.mirror/DeveloperCielo+developercielo.github.io/repo):
 *  - CONECTA_PT  _i18n/pt/_posts/api-ecommerce-cielo/2019-07-10-cielo-conecta.md
 *  - CONECTA_EN  _i18n/en/_posts/api-ecommerce-cielo/2019-07-10-cielo-conecta.md
 *  - ECOMMERCE   _i18n/pt/_posts/api-ecommerce-cielo/2003-03-03-cielo-ecommerce.md
 *  - QR_V4       _i18n/pt/_posts/qrcode/2021-10-19-qrcode-v4.md
 */

/** The host's base addresses: each is its own listener. */
export const SANDBOX_BASES = [
  'authorization',
  'requests',
  'queries',
  'parameters',
  'registration',
  'ecommerceRequests',
  'ecommerceQueries',
  'wallet',
] as const;
export type SandboxBase = (typeof SANDBOX_BASES)[number];

/** Where each base lives at the acquirer (sandbox environment), and the path prefix its URL carries. */
export const BASE_SOURCES: Record<SandboxBase, { host: string; prefix: string; source: string }> = {
  authorization: { host: 'https://authsandbox.cieloecommerce.cielo.com.br', prefix: '', source: 'CONECTA_PT:60' },
  requests: { host: 'https://apisandbox.cieloecommerce.cielo.com.br', prefix: '', source: 'CONECTA_PT:1320' },
  queries: { host: 'https://apiquerysandbox.cieloecommerce.cielo.com.br', prefix: '', source: 'CONECTA_PT:7700' },
  parameters: {
    host: 'https://parametersdownloadsandbox.cieloecommerce.cielo.com.br',
    prefix: '/api/v0.1',
    source: 'CONECTA_PT:108',
  },
  registration: {
    host: 'https://merchantapisandbox.cieloecommerce.cielo.com.br',
    prefix: '',
    source: 'CONECTA_PT:8670, 9882',
  },
  ecommerceRequests: { host: 'https://apisandbox.cieloecommerce.cielo.com.br', prefix: '', source: 'ECOMMERCE:634' },
  ecommerceQueries: {
    host: 'https://apiquerysandbox.cieloecommerce.cielo.com.br',
    prefix: '',
    source: 'ECOMMERCE:494, 852',
  },
  wallet: {
    host: 'https://api2.cielo.com.br',
    prefix: '',
    source: 'QR_V4:17-18 (production paths; the sandbox adds /sandbox)',
  },
};

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface SandboxRoute {
  readonly method: Method;
  /** Path template under the base; `{Name}` is a path parameter. */
  readonly path: string;
  /** Page and line of the manual the row was read from. */
  readonly source: string;
}

/**
 * Same-host twins: the omni sale and e-commerce request APIs share the requests host at the
 * acquirer (apisandbox…), and the two query APIs share the query host. In the sandbox they are
 * separate listeners (the configuration names them apart), and each twin serves the other's paths
 * too, as the one real host would.
 */
export const SHARED_HOST: Partial<Record<SandboxBase, SandboxBase>> = {
  requests: 'ecommerceRequests',
  ecommerceRequests: 'requests',
  queries: 'ecommerceQueries',
  ecommerceQueries: 'queries',
};

export const SANDBOX_ROUTES = {
  authorization: {
    omniToken: { method: 'POST', path: '/oauth2/token', source: 'CONECTA_PT:73 "Criar Token"' },
  },
  requests: {
    saleCreate: { method: 'POST', path: '/1/physicalSales', source: 'CONECTA_PT:1327 "Autorização"' },
    saleUndo: {
      method: 'DELETE',
      path: '/1/physicalSales/{PaymentId}',
      source: 'CONECTA_PT:7358 "Desfazimento por PaymentId"',
    },
    saleUndoByOrderId: {
      method: 'DELETE',
      path: '/1/physicalSales/orderId/{MerchantOrderId}',
      source: 'CONECTA_PT:7460 "Desfazimento por OrderId"',
    },
    saleConfirm: {
      method: 'PUT',
      path: '/1/physicalSales/{PaymentId}/confirmation',
      source: 'CONECTA_PT:7590 "Confirmação"',
    },
    saleUndoPut: {
      method: 'PUT',
      path: '/1/physicalSales/{PaymentId}/undo',
      source: "CONECTA_EN:1603, 1679 (the English page's undo)",
    },
    saleUndoByOrderIdPut: {
      method: 'PUT',
      path: '/1/physicalSales/orderId/{MerchantOrderId}/undo',
      source: 'CONECTA_EN:1757, 1837',
    },
    voidCreate: {
      method: 'POST',
      path: '/1/physicalSales/{PaymentId}/voids',
      source: 'CONECTA_PT:8001 "Cancelamento de Pagamento"',
    },
    voidConfirm: {
      method: 'PUT',
      path: '/1/physicalSales/{PaymentId}/voids/{VoidId}/confirmation',
      source: 'CONECTA_PT:8584 "Confirmação de Cancelamento"',
    },
    voidUndo: {
      method: 'DELETE',
      path: '/1/physicalSales/{PaymentId}/voids/{VoidId}',
      source: 'CONECTA_EN:1882 (void undo)',
    },
    voidUndoByMerchantVoidId: {
      method: 'DELETE',
      path: '/1/physicalSales/{PaymentId}/voids/merchantVoidId/{MerchantVoidId}',
      source: 'CONECTA_EN:1918 (void undo by MerchantVoidId)',
    },
  },
  queries: {
    saleGet: { method: 'GET', path: '/1/physicalSales/{PaymentId}', source: 'CONECTA_PT:7700 "Consulta de Pagamento"' },
    saleGetByOrderId: {
      method: 'GET',
      path: '/1/physicalSales/MerchantOrderId/{MerchantOrderId}',
      source: 'CONECTA_PT:7702 "Consulta de Pagamento"',
    },
    voidGet: {
      method: 'GET',
      path: '/1/physicalSales/{PaymentId}/voids/{VoidId}',
      source: 'CONECTA_PT:8637 "Consulta de Cancelamento" (host: 8633)',
    },
  },
  parameters: {
    initialization: {
      method: 'GET',
      path: '/initialization/{SubordinatedMerchantId}/{TerminalId}',
      source: 'CONECTA_PT:125 "Inicialização"',
    },
    initializationTechnical: {
      method: 'POST',
      path: '/initialization',
      source: 'CONECTA_PT:491 "Inicialização com baixa tecnica"',
    },
  },
  registration: {
    merchantCreate: { method: 'POST', path: '/merchants', source: 'CONECTA_PT:9535 "Criar nova Loja"' },
    merchantGet: {
      method: 'GET',
      path: '/merchants/{SubordinatedMerchantId}',
      source: 'CONECTA_PT:9616 "Consulta Loja"',
    },
    merchantUpdate: {
      method: 'PUT',
      path: '/merchants/{SubordinatedMerchantId}',
      source: 'CONECTA_PT:9797 "Atualiza uma Loja"',
    },
    terminalCreate: { method: 'POST', path: '/terminals', source: 'CONECTA_PT:9890 "Criar Terminal sem Equipamento"' },
  },
  ecommerceRequests: {
    ecommerceSaleCreate: { method: 'POST', path: '/1/sales', source: 'ECOMMERCE:561, 634' },
    ecommerceSaleVoid: { method: 'PUT', path: '/1/sales/{PaymentId}/void', source: 'ECOMMERCE:1952, 6291' },
    ecommerceSaleCapture: { method: 'PUT', path: '/1/sales/{PaymentId}/capture', source: 'ECOMMERCE:6089, 6099' },
    ecommerceSaleVoidByOrderId: {
      method: 'PUT',
      path: '/1/sales/OrderId/{MerchantOrderId}/void',
      source: 'ECOMMERCE:6207-6209',
    },
    ecommerceCardSave: { method: 'POST', path: '/1/card', source: 'ECOMMERCE:3081, 3095' },
  },
  ecommerceQueries: {
    ecommerceSaleGet: { method: 'GET', path: '/1/sales/{PaymentId}', source: 'ECOMMERCE:5484 (host: 852)' },
    ecommerceCardBin: { method: 'GET', path: '/1/cardBin/{Bin}', source: 'ECOMMERCE:490, 494' },
    ecommerceSalesByOrderId: { method: 'GET', path: '/1/sales', source: 'ECOMMERCE:5869, 5873 (?merchantOrderId=)' },
    ecommerceRecurrentGet: {
      method: 'GET',
      path: '/1/RecurrentPayment/{RecurrentPaymentId}',
      source: 'ECOMMERCE:5936, 5940',
    },
  },
  wallet: {
    walletTokenJson: { method: 'POST', path: '/v2/oauth/access-token', source: 'QR_V4:47' },
    walletTokenForm: { method: 'POST', path: '/v2/oauth/token', source: 'QR_V4:92' },
    walletPublicKey: { method: 'GET', path: '/padraoq/v1/publicKey', source: 'QR_V4:162' },
    walletParseQr: { method: 'GET', path: '/padraoq/v1/parsedQRCode', source: 'QR_V4:396' },
    walletCardPayment: { method: 'POST', path: '/padraoq/v1/payment/card', source: 'QR_V4:227' },
  },
} as const satisfies Record<SandboxBase, Record<string, SandboxRoute>>;

type Tables = typeof SANDBOX_ROUTES;
export type SandboxRouteName = Extract<{ [B in SandboxBase]: keyof Tables[B] }[SandboxBase], string>;

/** Every route name, with its base. */
export const ROUTE_BASE: Readonly<Record<SandboxRouteName, SandboxBase>> = Object.freeze(
  Object.fromEntries(SANDBOX_BASES.flatMap((b) => Object.keys(SANDBOX_ROUTES[b]).map((n) => [n, b]))) as Record<
    SandboxRouteName,
    SandboxBase
  >,
);

export function isRouteName(name: string): name is SandboxRouteName {
  return Object.hasOwn(ROUTE_BASE, name);
}

/** A matched request: the route, its base and its path parameters. */
export interface RouteMatch {
  name: SandboxRouteName;
  base: SandboxBase;
  params: Record<string, string>;
}

interface Pattern {
  name: SandboxRouteName;
  base: SandboxBase;
  method: Method;
  re: RegExp;
  keys: string[];
  literals: number;
}

const PATTERNS: Pattern[] = [];
for (const base of SANDBOX_BASES) {
  for (const [name, r] of Object.entries(SANDBOX_ROUTES[base]) as [SandboxRouteName, SandboxRoute][]) {
    const keys: string[] = [];
    const segs = r.path.split('/').map((s) => {
      const p = /^\{(\w+)\}$/.exec(s);
      if (p) {
        keys.push(p[1] as string);
        return '([^/]+)';
      }
      return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    });
    PATTERNS.push({
      name,
      base,
      method: r.method,
      // Case-sensitive: the manual prints one spelling per route, and a host need not forgive another.
      re: new RegExp(`^${segs.join('/')}/?$`),
      keys,
      literals: r.path.split('/').filter((s) => s && !s.startsWith('{')).length,
    });
  }
}
PATTERNS.sort((a, b) => b.literals - a.literals);

/**
 * The route a listener for `bases` serves at `method path` (the path without the base's prefix).
 * `{ allowed }` when the path exists there under another method; undefined when the listener
 * does not serve the path at all (the host's unknown path).
 */
export function matchOn(
  bases: readonly SandboxBase[],
  method: string,
  path: string,
): RouteMatch | { allowed: Method[] } | undefined {
  const allowed: Method[] = [];
  let literals = -1;
  for (const p of PATTERNS) {
    if (!bases.includes(p.base)) continue;
    if (p.literals < literals) break;
    const m = p.re.exec(path);
    if (!m) continue;
    literals = p.literals;
    if (p.method !== method) {
      allowed.push(p.method);
      continue;
    }
    const params: Record<string, string> = {};
    try {
      p.keys.forEach((k, i) => (params[k] = decodeURIComponent(m[i + 1] as string)));
    } catch {
      continue;
    }
    return { name: p.name, base: p.base, params };
  }
  return allowed.length > 0 ? { allowed } : undefined;
}

/** The path of a route with its parameters filled in (for `Links`). */
export function pathOf(name: SandboxRouteName, params: Record<string, string>): string {
  const base = ROUTE_BASE[name];
  const r = (SANDBOX_ROUTES[base] as Record<string, SandboxRoute>)[name] as SandboxRoute;
  return (
    BASE_SOURCES[base].prefix + r.path.replace(/\{(\w+)\}/g, (_m, k: string) => encodeURIComponent(params[k] ?? ''))
  );
}
