import { z } from 'zod';
import { PaymentRequest, STATUSES } from './payments.js';
import { DAY_SCHEMAS, dayPaths } from './day.js';
import { ALARM_SCHEMA } from './alarms.js';
import { VOID_SCHEMAS, voidPaths } from './voids.js';
import { named, TAGS } from './openapi-operations.js';

type Schema = Record<string, unknown>;

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Schema, description: string): Schema => ({
  description,
  content: { 'application/json': { schema } },
});
const error = (description: string): Schema => json(ref('Error'), description);

const PAYMENT_ID = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The payment id `POST /v1/payments` returned.',
  schema: { type: 'string', pattern: '^[0-9]{1,12}$' },
};

const requestSchema = (): Schema => {
  const { $schema: _drop, ...schema } = z.toJSONSchema(PaymentRequest, { io: 'input' }) as Schema;
  return schema;
};

const str = { type: 'string' };
const int = { type: 'integer' };
const time = { type: 'string', format: 'date-time' };
const nullable = (s: Schema): Schema => ({ anyOf: [s, { type: 'null' }] });

const SCHEMAS: Record<string, Schema> = {
  Error: {
    type: 'object',
    description: 'Every refusal: a stable code, a message saying what and where, and for bad input the field at fault.',
    properties: {
      error: {
        type: 'object',
        properties: { code: str, message: str, field: str },
        required: ['code', 'message'],
        additionalProperties: false,
      },
    },
    required: ['error'],
    additionalProperties: false,
  },
  PaymentRequest: requestSchema(),
  Payment: {
    type: 'object',
    description: 'A payment as the cash register reads it. Fields the payment does not have yet are absent.',
    properties: {
      id: int,
      merchantOrderId: str,
      status: { type: 'string', enum: STATUSES },
      state: { ...str, description: 'The engine state behind the status (for support).' },
      amount: { ...int, description: 'Cents.' },
      method: { type: 'string', enum: ['credit', 'debit', 'voucher', 'wallet-qr', 'pix'] },
      qrModality: { type: 'string', enum: ['credit', 'debit'] },
      installments: int,
      interest: { type: 'string', enum: ['ByMerchant', 'ByIssuer'] },
      confirmation: { type: 'string', enum: ['auto', 'ecr'] },
      qrCode: { ...str, description: 'The code to show while the payment is pending (wallet QR, Pix).' },
      expiresAt: time,
      paymentId: str,
      authorizationCode: str,
      nsu: str,
      returnCode: str,
      returnMessage: str,
      card: {
        type: 'object',
        properties: {
          maskedPan: str,
          inputMode: str,
          brandId: { type: ['integer', 'string'] },
          productId: { type: ['integer', 'string'] },
        },
        required: ['maskedPan'],
        additionalProperties: false,
      },
      fiscal: ref('FiscalCard'),
      decisionDeadline: {
        ...time,
        description:
          'With `confirmation: ecr`: when an undecided sale is undone; while the receipt question is open, when the payment is undone unanswered.',
      },
      receiptQuestion: {
        type: 'boolean',
        const: true,
        description:
          'Present while the receipt question is open: answer it with `POST /v1/payments/{id}/receipt/answer`.',
      },
      reason: str,
      receipt: { type: 'object', description: "The host's receipt fields and messages." },
      createdAt: time,
      updatedAt: time,
    },
    required: [
      'id',
      'merchantOrderId',
      'status',
      'state',
      'amount',
      'method',
      'confirmation',
      'createdAt',
      'updatedAt',
    ],
    additionalProperties: false,
  },
  FiscalCard: {
    type: 'object',
    description:
      "An authorized card sale's fields for the cash register's fiscal document (NFC-e `card` group: `tpIntegra`, `CNPJ`, `tBand`, `cAut`; and the NSU).",
    properties: {
      integration: {
        type: 'integer',
        enum: [1],
        description: '`tpIntegra`: 1, integrated with the cash register (TEF).',
      },
      acquirerCnpj: { type: 'string', pattern: '^[0-9]{14}$', description: "`CNPJ`: the acquirer's CNPJ." },
      cardBrand: {
        type: 'string',
        pattern: '^[0-9]{2}$',
        description: '`tBand`: the NFC-e brand code (01 Visa, 02 Mastercard, 06 Elo, … 99 others).',
      },
      cardBrandName: str,
      authorizationCode: { ...str, description: '`cAut`.' },
      nsu: str,
    },
    required: ['integration', 'acquirerCnpj', 'cardBrand', 'authorizationCode'],
    additionalProperties: false,
  },
  ReceiptPrint: {
    type: 'object',
    description:
      'What the printer made of a reprint: `printed` only on its word after the cut; `failed` nothing was printed (paper out, cover open, offline); `unsure` bytes left but no proof; `skipped` no printer.',
    properties: {
      id: int,
      merchantOrderId: str,
      copy: { type: 'string', enum: ['customer', 'merchant'] },
      result: { type: 'string', enum: ['printed', 'failed', 'unsure', 'skipped'] },
    },
    required: ['id', 'merchantOrderId', 'copy', 'result'],
    additionalProperties: false,
  },
  PaymentList: {
    type: 'object',
    properties: { payments: { type: 'array', items: ref('Payment') } },
    required: ['payments'],
    additionalProperties: false,
  },
  KeySlot: {
    type: 'object',
    properties: {
      present: { type: 'boolean' },
      ksn: { type: ['string', 'null'], description: "The PIN key's KSN (hex), when the pinpad gives it." },
    },
    required: ['present', 'ksn'],
    additionalProperties: false,
  },
  Health: {
    type: 'object',
    properties: {
      status: { type: 'string', enum: ['ok', 'degraded'] },
      problems: { type: 'array', items: str },
      busy: {
        type: 'boolean',
        description: 'A payment (card, wallet QR, Pix or void) holds the terminal: a new one answers 409 BUSY.',
      },
      pinpad: nullable({
        type: 'object',
        properties: {
          connected: { type: 'boolean' },
          status: str,
          secure: { type: 'boolean', description: 'A secure session (KSEC) is up.' },
          recognition: str,
          sessions: int,
          opening: {
            type: 'boolean',
            description:
              "The daemon just started and is opening the pinpad's first secure session (a real pinpad takes seconds): card sales and card voids answer 503 PINPAD_OPENING until it is open.",
          },
          keySlots: nullable({
            type: 'object',
            description:
              "The DUKPT key slots, read once by the daemon (GIX, or GIN on a classic pinpad) when it first held the pinpad. Each map lists the slots holding a key and the configured slot; a PIN key's KSN is given (it is public: it travels with every PIN block). Never a key.",
            properties: {
              readAt: nullable(time),
              error: {
                type: ['string', 'null'],
                description: 'Why the slots are unknown (the read failed; tried again at the next connection).',
              },
              configured: { type: 'object', properties: { pin: int, data: int }, required: ['pin', 'data'] },
              pin: nullable({ type: 'object', additionalProperties: ref('KeySlot') }),
              data: nullable({
                type: 'object',
                additionalProperties: ref('KeySlot'),
                description: 'Null when the pinpad does not report data keys (GIN).',
              }),
            },
            required: ['readAt', 'error', 'configured', 'pin', 'data'],
          }),
        },
        required: ['connected', 'status', 'secure', 'recognition', 'sessions', 'opening', 'keySlots'],
      }),
      printer: nullable({
        type: 'object',
        description:
          "As of the last status the printer's driver read (at open and around each receipt); null fields before any.",
        properties: {
          kind: str,
          reachable: { type: ['boolean', 'null'] },
          paperOut: { type: ['boolean', 'null'] },
          paperNearEnd: { type: ['boolean', 'null'] },
          coverOpen: { type: ['boolean', 'null'] },
        },
        required: ['kind', 'reachable', 'paperOut', 'paperNearEnd', 'coverOpen'],
      }),
      acquirer: nullable({
        type: 'object',
        description:
          "The last thing heard from the acquirer: any answer, and the daemon's probe (a token request, never a sale), sent with backoff while the acquirer reads unreachable and every few minutes otherwise.",
        properties: {
          reachable: { type: ['boolean', 'null'] },
          lastAnswerAt: nullable(time),
          lastFailureAt: nullable(time),
          lastFailure: { type: ['string', 'null'] },
        },
        required: ['reachable', 'lastAnswerAt', 'lastFailureAt', 'lastFailure'],
      }),
      outbox: {
        type: 'object',
        properties: { pending: int, deadLetters: int, oldestDeadline: nullable(time) },
        required: ['pending', 'deadLetters', 'oldestDeadline'],
      },
      tables: { type: 'object', properties: { version: { type: ['string', 'null'] } }, required: ['version'] },
      clock: nullable({
        type: 'object',
        properties: { hostOffsetMs: { ...int, description: "How far the acquirer's clock is ahead of ours." } },
        required: ['hostOffsetMs'],
      }),
      alarms: {
        type: 'array',
        items: ref('Alarm'),
        description: "What holds now, then the engines' alarms of the last 24 hours.",
      },
    },
    required: ['status', 'problems', 'busy', 'pinpad', 'printer', 'acquirer', 'outbox', 'tables', 'clock', 'alarms'],
  },
  Event: {
    type: 'object',
    description:
      'One server-sent event (`event:` is its type, `id:` its seq, `data:` this object). States carry the payment status; `qr` the code to show; `alarm` what needs a person; `receipt-question` asks whether the receipt came out; `prompt` what the pinpad shows the customer during a card sale (`prompt` a stable code, `text` the Portuguese text).',
    properties: {
      type: { type: 'string', enum: ['state', 'qr', 'alarm', 'receipt-question', 'prompt'] },
      seq: {
        ...int,
        description:
          'In the order things happened; grows across daemon restarts and is never given twice. The `id:` of the event.',
      },
      at: time,
      id: { ...int, description: 'The payment.' },
      kind: { type: 'string', enum: ['sale', 'qr', 'pix'] },
      merchantOrderId: str,
      state: str,
      status: { type: 'string', enum: STATUSES },
      input: str,
      qrCode: str,
      expiresAt: str,
      code: str,
      message: str,
      prompt: {
        type: 'string',
        enum: [
          'insert-card',
          'see-phone',
          'one-card',
          'enter-pin',
          'choose-product',
          'typed-entry',
          'processing',
          'remove-card',
          'message',
        ],
        description: 'For `prompt`: what the pinpad asks or tells.',
      },
      text: { ...str, description: 'For `prompt`: the text on the pinpad, one line.' },
    },
    required: ['type', 'seq', 'at', 'id'],
  },
};

const payment = (description: string): Schema => json(ref('Payment'), description);
const UNAUTHORIZED = error('A missing or wrong bearer token.');

const PATHS: Record<string, Schema> = {
  '/v1/payments': {
    post: {
      summary: 'Start a payment',
      parameters: [
        {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: 'The same key returns the same payment.',
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
        "A `text/event-stream` of Event objects while the connection lasts, with a `: heartbeat` comment every 15 s. Each event's `id:` is its `seq`, kept in the terminal's database for the business day (America/Sao_Paulo): a client that reconnects with `Last-Event-ID` (what a browser's EventSource sends by itself) first gets the events of the day after it, in order — across a daemon restart too — then the live ones, none twice. The header `x-omnipos-replay` says `complete`, or `partial` when some of what it missed is not replayed (before today, more than 20,000, or never written); then read `GET /v1/payments`.",
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
                description: 'Blocks of `id:`, `event:` and `data:` lines; each `data:` is an Event as JSON.',
                contentSchema: ref('Event'),
              },
              'x-itemSchema': ref('Event'),
            },
          },
        },
        '400': error('A `Last-Event-ID` that is not a seq (`field`).'),
        '401': UNAUTHORIZED,
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

/**
 * The API's OpenAPI 3.1 document, built from the same request schema the router validates with.
 * `src/api/openapi.json` is this document committed; a test keeps the two equal.
 */
export function openApiDocument(): Schema {
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
    paths: named(PATHS),
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: '`omnipos api token` prints it.' },
        ticket: {
          type: 'apiKey',
          in: 'query',
          name: 'ticket',
          description: 'From `POST /v1/events/ticket`: single use, 30 s; only `GET /v1/events` takes it.',
        },
      },
      schemas: { ...SCHEMAS, ...DAY_SCHEMAS, ...VOID_SCHEMAS, Alarm: ALARM_SCHEMA },
    },
  };
}
