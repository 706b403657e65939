import type { Logger } from '../core/index.js';
import type { Outbox } from '../store/index.js';
import type { CnpCaptureApiDeps } from './card-not-present-capture.js';
import type { CnpSalesApiDeps } from './card-not-present.js';
import type { CnpCardsApiDeps } from './card-not-present-cards.js';
import type { DayApiDeps } from './day.js';
import type { EventsApiDeps } from './event-operations.js';
import type { HealthSources } from './health.js';
import type { MetricsApiDeps } from './metrics.js';
import type { PaymentsDeps } from './payments.js';
import type { ReceiptService } from './receipts.js';
import type { ScreenScope } from './scopes.js';
import type { loadScreens } from './screens.js';
import type { VoidsApiDeps } from './voids.js';

/** What the API is built with (`buildApp`): every area's deps (each operation takes its own part) and the router's. */
export interface ApiDeps
  extends
    PaymentsDeps,
    DayApiDeps,
    VoidsApiDeps,
    CnpSalesApiDeps,
    CnpCaptureApiDeps,
    CnpCardsApiDeps,
    EventsApiDeps,
    MetricsApiDeps {
  token: string;
  outbox: Outbox;
  log: Logger;
  /** What `GET /v1/health` reports besides busy and the outbox. */
  health?: HealthSources | undefined;
  /** Receipt views and reprints (none: those routes answer 409). */
  receipts?: ReceiptService | undefined;
  /** The screens' own tokens (`kiosk-token`, `cashier-token`): each reaches only its own sales (src/api/scopes.ts). */
  screenTokens?: Partial<Record<ScreenScope, string>> | undefined;
  /** The screens' files (default: read once from src/screens). */
  screens?: ReturnType<typeof loadScreens> | undefined;
  /**
   * The names a request's `Host` may carry besides the loopback ones (the LAN listener's host and
   * its certificate's names); any other Host is refused (421), against DNS rebinding.
   */
  hosts?: readonly string[] | undefined;
  /** Told of each request refused for its bearer token (the `/metrics` counter). */
  onAuthFailure?: (() => void) | undefined;
}
