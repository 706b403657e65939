import { dayPaths } from './day.js';
import { STATUSES } from './payments.js';
import { voidPaths } from './voids.js';
import { cnpSalePaths } from './card-not-present.js';
import { cnpCapturePaths } from './card-not-present-capture.js';
import { cnpCardPaths } from './card-not-present-cards.js';
import { cnpRecurrencePaths } from './card-not-present-recurrences.js';
import { error, int, json, ref, str, type Schema } from './openapi-kit.js';

const PAYMENT_ID = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The payment id `POST /v1/payments` returned.',
  schema: { type: 'string', pattern: '^[0-9]{1,12}$' },
};

const payment = (description: string): Schema => json(ref('Payment'), description);
const UNAUTHORIZED = error('A missing or wrong bearer token.');

/** The paths of the API's OpenAPI document: payments, receipts, events, health, metrics, the day, voids. */
export const PATHS: Record<string, Schema> = {
  '/v1/payments': {
    post: {
      summary: 'Start a payment',
      parameters: [
        {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'The same key with the same request returns the same payment (200), however often it is sent; with another request it is refused (422 `IDEMPOTENCY_KEY_REUSED`). "The same request" is the body as validated, defaults applied (`installments` 1, `interest` ByMerchant, `confirmation` auto), compared field by field: key order and the defaults written out or left out do not matter. Scope: this terminal, every method of `POST /v1/payments`. Lifetime: as long as the payment is in the terminal\'s journal (never pruned): a key is never given to a second payment.',
          schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,64}$' },
        },
      ],
      requestBody: { required: true, content: { 'application/json': { schema: ref('PaymentRequest') } } },
      responses: {
        '200': payment('The payment this Idempotency-Key already started.'),
        '202': {
          ...payment('Started; follow it on `GET /v1/payments/{id}` or `GET /v1/events`.'),
          headers: { Location: { schema: str } },
        },
        '400': error('A field at fault (`field`), or a body that is not JSON.'),
        '401': UNAUTHORIZED,
        '409': error(
          'The terminal is busy with another payment, the method is not available, or the tables forbid typed entry for it (`TYPING_NOT_ALLOWED`).',
        ),
        '413': error('The body is too large.'),
        '415': error('The body is not application/json.'),
        '422': error('The Idempotency-Key was used for another request.'),
      },
    },
    get: {
      summary: 'List payments, newest first',
      parameters: [{ name: 'status', in: 'query', required: false, schema: { type: 'string', enum: STATUSES } }],
      responses: {
        '200': json(ref('PaymentList'), 'Up to 200 payments.'),
        '400': error('An unknown status.'),
        '401': UNAUTHORIZED,
      },
    },
  },
  '/v1/payments/{id}': {
    get: {
      summary: 'Read a payment',
      parameters: [PAYMENT_ID],
      responses: { '200': payment('The payment.'), '401': UNAUTHORIZED, '404': error('No such payment.') },
    },
  },
  '/v1/payments/{id}/receipt': {
    get: {
      summary:
        "A payment's receipt, rebuilt from the journal: text, an HTML view, the PNG the virtual printer draws, or a QR code of its digital copy",
      description:
        'For a payment approved by the host whose receipt step began (printing, awaiting a decision, confirmed), of any day. `format=qr`: an SVG QR code holding the customer copy as text (32 columns, card number at most first 6 / last 4) for a phone to read offline — or, past what a QR code of version 20 at ECC L holds (858 bytes), a compact form (merchant, date, amount, product, masked card, authorization code, NSU, order, status); header `x-omnipos-digital-copy` says `full` or `compact`; `copy` and `columns` do not apply. A kiosk shows it when it does not print.',
      parameters: [
        PAYMENT_ID,
        {
          name: 'format',
          in: 'query',
          required: false,
          schema: { type: 'string', enum: ['text', 'html', 'png', 'qr'], default: 'text' },
        },
        {
          name: 'copy',
          in: 'query',
          required: false,
          schema: { type: 'string', enum: ['customer', 'merchant'], default: 'customer' },
        },
        {
          name: 'columns',
          in: 'query',
          required: false,
          description: "Characters a line (default: the printer's width).",
          schema: { type: 'string', enum: ['32', '42', '48'] },
        },
      ],
      responses: {
        '200': {
          description: 'The receipt.',
          content: {
            'text/plain': { schema: { type: 'string' } },
            'text/html': { schema: { type: 'string' } },
            'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } },
            'image/svg+xml': { schema: { type: 'string' } },
          },
        },
        '400': error('A query value at fault (`field`).'),
        '401': UNAUTHORIZED,
        '404': error('No such payment.'),
        '409': error(
          'RECEIPT_NOT_AVAILABLE: the payment has no receipt (never approved, or undone before its receipt).',
        ),
      },
    },
  },
  '/v1/payments/{id}/receipt/answer': {
    post: {
      summary: 'Answer the receipt question ("o comprovante saiu?")',
      description:
        'Open while the payment is `printing` after a `receipt-question` event: the printer could not vouch for the receipt (paper out mid-receipt, a lost link), or the daemon restarted mid-print. `true` moves on as a printed receipt; `false` undoes (or refunds) the payment. Unanswered, it is undone at the decision deadline.',
      parameters: [PAYMENT_ID],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: { printed: { type: 'boolean' } },
              required: ['printed'],
              additionalProperties: false,
            },
          },
        },
      },
      responses: {
        '200': payment('The payment after the answer.'),
        '400': error('A body field at fault (`field`).'),
        '401': UNAUTHORIZED,
        '404': error('No such payment.'),
        '409': error('No receipt question is open for this payment.'),
      },
    },
  },
  '/v1/payments/{id}/receipt/print': {
    post: {
      summary: 'Reprint a receipt of today, marked "SEGUNDA VIA (2a VIA)"',
      parameters: [PAYMENT_ID],
      requestBody: {
        required: false,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: { copy: { type: 'string', enum: ['customer', 'merchant'], default: 'customer' } },
              additionalProperties: false,
            },
          },
        },
      },
      responses: {
        '200': json(ref('ReceiptPrint'), 'What the printer made of it.'),
        '400': error('A body field at fault (`field`).'),
        '401': UNAUTHORIZED,
        '404': error('No such payment.'),
        '409': error('RECEIPT_NOT_AVAILABLE: the payment has no receipt, or it is not of today.'),
      },
    },
  },
  ...Object.fromEntries(
    (
      [
        ['confirm', 'Confirm an approved payment (after the fiscal document)'],
        ['undo', 'Undo an approved payment'],
        ['cancel', 'Cancel a payment still in progress'],
      ] as const
    ).map(([action, summary]) => [
      `/v1/payments/{id}/${action}`,
      {
        post: {
          summary,
          parameters: [PAYMENT_ID],
          responses: {
            '200': payment('The payment after the action.'),
            '401': UNAUTHORIZED,
            '404': error('No such payment.'),
            '409': error('The payment cannot take this action now.'),
          },
        },
      },
    ]),
  ),
  '/v1/events/ticket': {
    post: {
      summary: 'A single-use ticket for `GET /v1/events?ticket=` (a browser EventSource sends no header)',
      description: 'Opens one stream once, within `expiresInMs`; the long-lived token never goes in a URL.',
      responses: {
        '201': json(
          {
            type: 'object',
            properties: { ticket: str, expiresInMs: { type: 'integer' } },
            required: ['ticket', 'expiresInMs'],
            additionalProperties: false,
          },
          'The ticket.',
        ),
        '401': UNAUTHORIZED,
      },
    },
  },
  '/v1/events': {
    get: {
      security: [{ bearer: [] }, { ticket: [] }],
      summary: 'Server-sent events: state changes, codes to show, alarms, the receipt question',
      description:
        "A `text/event-stream` of Event objects while the connection lasts, with a `: heartbeat` comment every 15 s. Each event's `id:` is its `seq`, kept in the terminal's database for the business day (America/Sao_Paulo): a client that reconnects with `Last-Event-ID` (what a browser's EventSource sends by itself) first gets the events of the day after it, in order — across a daemon restart too — then the live ones, none twice. The header `x-omnipos-replay` says `complete`, or `partial` when some of what it missed is not replayed (before today, more than 20,000, or never written); then read `GET /v1/payments`. The replay is read from the database 128 events at a time, each page once the client took the one before; a replay whose client takes nothing for 60 s, or a stream that falls 1 MiB behind, is closed (reconnect with `Last-Event-ID`). At most 8 streams per client address and 64 in all.",
      parameters: [
        {
          name: 'Last-Event-ID',
          in: 'header',
          required: false,
          description: 'The `seq` (`id:`) of the last event received: the events after it are sent first.',
          schema: { type: 'string', pattern: '^[0-9]{1,15}$' },
        },
      ],
      responses: {
        '200': {
          description: 'The stream.',
          headers: {
            'x-omnipos-replay': {
              description:
                '`none` without `Last-Event-ID`; `complete` when every event after it is replayed; `partial` when some are not.',
              schema: { type: 'string', enum: ['none', 'complete', 'partial'] },
            },
          },
          content: {
            'text/event-stream': {
              schema: {
                type: 'string',
                description:
                  "Blocks of `id:`, `event:` and `data:` lines; each `data:` is an Event as JSON. The stream's own document, with each event's fields: `GET /v1/events.openapi.json`.",
                contentSchema: ref('Event'),
              },
              'x-itemSchema': ref('Event'),
            },
          },
        },
        '400': error('A `Last-Event-ID` that is not a seq (`field`).'),
        '401': UNAUTHORIZED,
        '429': {
          ...error(
            'Refused before anything is read or sent: this client address holds 8 streams, or the terminal 64. Close a stream (or wait for one to end) and retry.',
          ),
          headers: { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: int } },
        },
      },
    },
  },
  '/v1/health': {
    get: {
      summary: "The terminal's health",
      responses: { '200': json(ref('Health'), 'What the daemon knows now.'), '401': UNAUTHORIZED },
    },
  },
  ...dayPaths(UNAUTHORIZED, error),
  ...voidPaths(UNAUTHORIZED, error),
  ...cnpSalePaths(UNAUTHORIZED, error),
  ...cnpCapturePaths(UNAUTHORIZED),
  ...cnpCardPaths(UNAUTHORIZED),
  ...cnpRecurrencePaths(UNAUTHORIZED),
  '/metrics': {
    get: {
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
    },
  },
  '/v1/openapi.json': {
    get: {
      summary: 'This document',
      description:
        'The source of the generated clients and of `GET /v1/docs`; kept in the repository as `src/api/openapi.json`.',
      security: [],
      responses: {
        '200': { description: 'OpenAPI 3.1.', content: { 'application/json': { schema: { type: 'object' } } } },
        '406': error('`Accept` does not take application/json.'),
      },
    },
  },
  '/v1/events.openapi.json': {
    get: {
      summary: "The event stream's own document",
      description:
        "`GET /v1/events` as OpenAPI 3.2 describes a `text/event-stream`: each event's `event`, `id` and `data` (an `Event` as JSON) in the Media Type's `itemSchema`, for tools that read server-sent events. Kept in the repository as `src/api/events.openapi.json`.",
      security: [],
      responses: {
        '200': { description: 'OpenAPI 3.2.', content: { 'application/json': { schema: { type: 'object' } } } },
        '406': error('`Accept` does not take application/json.'),
      },
    },
  },
  '/v1/docs': {
    get: {
      summary: 'This document as a page (the API reference)',
      description:
        "One HTML page rendered by the daemon from the same document: no script, nothing from another origin, served under the screens' content security policy.",
      security: [],
      responses: {
        '200': { description: 'The reference.', content: { 'text/html': { schema: { type: 'string' } } } },
        '406': error('`Accept` does not take text/html.'),
      },
    },
  },
};
