import type { Schema } from './openapi-kit.js';
import { EVENT_SCHEMAS } from './openapi-events.js';

/**
 * The event stream's own document: `GET /v1/events` as OpenAPI 3.2 describes a `text/event-stream`
 * (a Media Type's `itemSchema` gives each event's fields: `event`, `id`, `data`; `data` is JSON whose
 * schema is `Event`). Served at `GET /v1/events.openapi.json` and kept as `src/api/events.openapi.json`;
 * the API's document (3.1) points to it. Its schemas are the API document's event schemas, not a copy.
 */
export function eventStreamDocument(): Schema {
  return {
    openapi: '3.2.0',
    info: {
      title: 'omnipos cash register event stream',
      version: '1',
      description:
        'The server-sent events of `GET /v1/events`: state changes, codes to show, alarms, the receipt question, what the pinpad shows. Each event is told apart by `kind` (whose event) and `type` (what it says). The whole API is `GET /v1/openapi.json`.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-omnipos-proprietary' },
    },
    servers: [{ url: 'http://127.0.0.1:7878', description: 'The daemon on the terminal (`api.host`, `api.port`).' }],
    security: [{ bearer: [] }, { ticket: [] }],
    paths: {
      '/v1/events': {
        get: {
          operationId: 'streamEvents',
          summary: 'Server-sent events',
          description:
            "Every event's `id:` is its `seq`; a client that reconnects with `Last-Event-ID` first gets the business day's events after it, in order, then the live ones (header `x-omnipos-replay`: `none`, `complete` or `partial`). A `: heartbeat` comment every 15 s.",
          parameters: [
            {
              name: 'Last-Event-ID',
              in: 'header',
              required: false,
              schema: { type: 'string', pattern: '^[0-9]{1,15}$' },
            },
          ],
          responses: {
            '200': {
              description: 'The stream, one event at a time.',
              content: {
                'text/event-stream': {
                  itemSchema: {
                    type: 'object',
                    required: ['event', 'id', 'data'],
                    properties: {
                      event: { type: 'string', enum: ['state', 'qr', 'alarm', 'receipt-question', 'prompt'] },
                      id: { type: 'string', pattern: '^[0-9]+$', description: 'The event\u2019s `seq`.' },
                      data: {
                        type: 'string',
                        contentMediaType: 'application/json',
                        contentSchema: { $ref: '#/components/schemas/Event' },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: '`omnipos api token` prints it.' },
        ticket: { type: 'apiKey', in: 'query', name: 'ticket', description: 'From `POST /v1/events/ticket`.' },
      },
      schemas: EVENT_SCHEMAS,
    },
  };
}
