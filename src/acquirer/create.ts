import type { Dispatcher } from 'undici';
import type { Clock, Logger } from '../core/index.js';
import { AcquirerHttp } from './http.js';
import { OmniTokens, type SecretSource } from './oauth.js';
import { OmniClient } from './omni/client.js';
import { EcommerceClient } from './ecommerce-client.js';
import { WalletClient } from './wallet-client.js';

/** The acquirer settings the clients need (a subset of the configuration's `acquirer`). */
export interface AcquirerSettings {
  authUrl: string;
  requestUrl: string;
  queryUrl: string;
  parametersUrl: string;
  /**
   * Merchant and terminal registration, a host of its own. No fallback: without it a registration
   * call fails before anything is sent (the configuration requires it outside the sandbox).
   */
  registrationUrl?: string;
  walletUrl: string;
  /** The e-commerce API's request host (sales, voids). */
  ecommerceUrl: string;
  /**
   * The e-commerce API's query host (`GET /1/sales/{id}`, `GET /1/cardBin/{bin}`). The configuration
   * requires it outside the sandbox; when absent (sandbox tests) the request host is used.
   */
  ecommerceQueryUrl?: string;
  clientId: string;
  timeoutMs: number;
}

export interface AcquirerDeps {
  settings: AcquirerSettings;
  clientSecret: SecretSource;
  /** E-commerce credentials (Pix and QR sales); without them `ecommerce` is undefined. */
  ecommerce?: { merchantId: string; merchantKey: SecretSource };
  environment: 'sandbox' | 'homologation' | 'production';
  clock: Clock;
  log: Logger;
  dispatcher?: Dispatcher;
  onHostDate?: (date: Date) => void;
  /** Token renewal margin, ms (default 60 s). */
  tokenMarginMs?: number;
}

export interface Acquirer {
  http: AcquirerHttp;
  tokens: OmniTokens;
  omni: OmniClient;
  ecommerce?: EcommerceClient;
  /** A wallet's client of the QR API (tests and `omnipos wallet pay`). */
  wallet: WalletClient;
  close(): Promise<void>;
}

/** Builds the acquirer clients from the configuration. */
export function createAcquirer(deps: AcquirerDeps): Acquirer {
  const s = deps.settings;
  const log = deps.log.child({ component: 'acquirer' });
  const http = new AcquirerHttp({
    bases: {
      auth: s.authUrl,
      request: s.requestUrl,
      query: s.queryUrl,
      parameters: s.parametersUrl,
      registration: s.registrationUrl ?? '',
      ecommerce: s.ecommerceUrl,
      ecommerceQuery: s.ecommerceQueryUrl ?? s.ecommerceUrl,
      wallet: s.walletUrl,
    },
    timeoutMs: s.timeoutMs,
    homologation: deps.environment === 'homologation',
    log,
    ...(deps.dispatcher ? { dispatcher: deps.dispatcher } : {}),
    ...(deps.onHostDate ? { onHostDate: deps.onHostDate } : {}),
  });
  const tokens = new OmniTokens({
    http,
    clientId: s.clientId,
    clientSecret: deps.clientSecret,
    clock: deps.clock,
    ...(deps.tokenMarginMs !== undefined ? { marginMs: deps.tokenMarginMs } : {}),
  });
  const omni = new OmniClient({ http, tokens, log });
  const ecommerce = deps.ecommerce
    ? new EcommerceClient({ http, merchantId: deps.ecommerce.merchantId, merchantKey: deps.ecommerce.merchantKey })
    : undefined;
  const wallet = new WalletClient({ http, clientId: s.clientId, clientSecret: deps.clientSecret, clock: deps.clock });
  return { http, tokens, omni, wallet, ...(ecommerce ? { ecommerce } : {}), close: () => http.close() };
}
