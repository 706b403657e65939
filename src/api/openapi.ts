import { DAY_SCHEMAS } from './day.js';
import { ALARM_SCHEMA } from './alarms.js';
import { VOID_SCHEMAS } from './voids.js';
import { CNP_SCHEMAS } from './card-not-present.js';
import { CNP_CARD_SCHEMAS } from './card-not-present-cards.js';
import { CNP_RECURRENCE_SCHEMAS } from './card-not-present-recurrences.js';
import type { Schema } from './openapi-kit.js';
import { pathsOf, type OperationDoc } from './openapi-operations.js';
import { SCHEMAS } from './openapi-schemas.js';
import { TAGS } from './routes.js';

/**
 * The API's OpenAPI 3.1 document, built from the operations the router serves (src/api/operations.ts
 * `OPERATIONS`) and the same request schemas it validates with. `src/api/openapi.json` is this
 * document committed (`npm run generate`); a test keeps the two equal.
 */
export function openApiDocument(operations: readonly OperationDoc[]): Schema {
  return {
    openapi: '3.1.0',
    info: {
      title: 'omnipos cash register API',
      version: '1',
      description:
        "The terminal's local API for the cash register: payments, their events, health. Loopback by default.",
      license: { name: 'Proprietary', identifier: 'LicenseRef-omnipos-proprietary' },
    },
    servers: [{ url: 'http://127.0.0.1:7878', description: 'The daemon on the terminal (`api.host`, `api.port`).' }],
    security: [{ bearer: [] }],
    tags: TAGS.map((t) => ({ ...t })),
    paths: pathsOf(operations),
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            "The cash register's token (`<stateDir>/api-token`; `omnipos api token` prints it): every operation.",
        },
        kiosk: {
          type: 'http',
          scheme: 'bearer',
          description:
            "The kiosk screen's token (`<stateDir>/kiosk-token`): health, starting a payment, and only the payments it started (read, cancel, receipt, the stream's events). Any other operation answers 401; another's payment 404.",
        },
        cashier: {
          type: 'http',
          scheme: 'bearer',
          description:
            "The cashier screen's token (`<stateDir>/cashier-token`): what the kiosk's reaches, for the payments the cashier screen started.",
        },
        ticket: {
          type: 'apiKey',
          in: 'query',
          name: 'ticket',
          description: 'From `POST /v1/events/ticket`: single use, 30 s; only `GET /v1/events` takes it.',
        },
      },
      schemas: {
        ...SCHEMAS,
        ...DAY_SCHEMAS,
        ...VOID_SCHEMAS,
        ...CNP_SCHEMAS,
        ...CNP_CARD_SCHEMAS,
        ...CNP_RECURRENCE_SCHEMAS,
        Alarm: ALARM_SCHEMA,
      },
    },
  };
}
