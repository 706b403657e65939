import { z } from 'zod';
import { PaymentRequest, STATUSES } from './payments.js';
import { int, nullable, ref, str, time, type Schema } from './openapi-kit.js';
import { EVENT_SCHEMAS } from './openapi-events.js';
import { FISCAL_FIELDS } from './payment-fiscal.js';

/** The payment request as the router validates it, as JSON Schema (its input side). */
const requestSchema = (): Schema => {
  const { $schema: _drop, ...schema } = z.toJSONSchema(PaymentRequest, { io: 'input' }) as Schema;
  return schema;
};

/** The components' schemas of the API's OpenAPI document: payments, their events and errors. */
export const SCHEMAS: Record<string, Schema> = {
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
      capturedAmount: {
        ...int,
        description: 'A card-not-present sale: cents captured (a pre-authorization captured whole or in part).',
      },
      voidedAmount: { ...int, description: 'A card-not-present sale: cents voided of it so far (partial voids).' },
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
          brand: {
            ...str,
            description:
              "A card-not-present sale: the scheme as its host names it (the JSON API's `Visa`, `Master`…; the webservice 1.5's `visa`, `mastercard`…).",
          },
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
      refusal: {
        ...str,
        description:
          "With `status: refused`: why the terminal's tables did not take the card for this sale, before anything was sent (nothing charged): `no-product-of-type` the card has no product of the sale's `method` (a credit-only card on a debit or voucher sale: ask for another card or method); the other codes name the selection rule that refused it (`unknown-bin`, `aid-not-in-table`, `contactless-not-allowed`, `fallback-not-allowed`, `use-chip`, `installments-not-allowed`, `expired`, `typing-not-allowed`, `invalid-card-number`, `requires-pinpad`, `requires-chip-reader`, `not-initialized`). `reason` says it in words.",
      },
      expired: {
        type: 'boolean',
        const: true,
        description:
          'Present on a Pix payment whose code expired unpaid (its cancel followed): decide by this, not by the text of `reason`.',
      },
      receipt: {
        type: 'object',
        description:
          "The host's slip for an approved card sale, as the sale's answer gave it (`ReceiptInformation` and `PrintMessage`): what the customer's receipt prints.",
        properties: {
          fields: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                field: {
                  ...str,
                  description:
                    "The host's name for the row (`MERCHANT_NAME`, `NSU`, `AUTHORIZATION_CODE`, `CARD_NUMBER`, …).",
                },
                label: { ...str, description: 'The label printed (`DOC`, `AUTORIZAÇÃO`, …).' },
                content: { ...str, description: 'The value printed (the card number masked).' },
              },
              required: ['field', 'label', 'content'],
              additionalProperties: false,
            },
          },
          messages: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                position: { ...str, description: 'Where it prints (`Top`, `Bottom`).' },
                message: str,
              },
              required: ['position', 'message'],
              additionalProperties: false,
            },
          },
        },
        required: ['fields', 'messages'],
        additionalProperties: false,
      },
      voided: {
        type: 'object',
        description:
          'Present once a void (or a Pix refund) of this payment was approved: the cents given back, and `full` when that is the whole amount. `status` stays what it was (`confirmed`: the sale took place); its voids are `GET /v1/payments/{id}/voids`.',
        properties: { amount: { ...int, minimum: 1, description: 'Cents given back.' }, full: { type: 'boolean' } },
        required: ['amount', 'full'],
        additionalProperties: false,
      },
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
      "The fields of the cash register's fiscal document's card group (NFC-e `card`: `tpIntegra`, `CNPJ`, `tBand`, `cAut`; and the NSU) for an authorized card sale or a paid wallet QR or Pix payment. A card sale always has `cardBrand` and `authorizationCode`. A wallet QR or Pix payment has what the host's answer carried: `cardBrand` only when the answer named the brand's `BrandId`, `authorizationCode` and `nsu` when it gave them; a Pix answer has no card and no authorization code (only its NSU, `ProofOfSale`). Each one missing is named in `absent`, never made up.",
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
      absent: {
        type: 'array',
        items: { type: 'string', enum: [...FISCAL_FIELDS] },
        minItems: 1,
        uniqueItems: true,
        description: "The card group's fields the host's answer did not carry (wallet QR, Pix).",
      },
    },
    required: ['integration', 'acquirerCnpj'],
    allOf: (['cardBrand', 'authorizationCode'] as const).map((f) => ({
      anyOf: [
        { required: [f], properties: { [f]: str } },
        { required: ['absent'], properties: { absent: { contains: { const: f } } } },
      ],
    })),
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
        properties: {
          pending: int,
          deadLetters: int,
          oldestDeadline: nullable(time),
          awaitingHostClose: {
            ...int,
            description:
              "Of the pending tasks, the watches of codes that ended on the terminal, awaiting the host's close (and the window after it): wallet QR sales whose code ended unpaid, before a late payment can be ruled out, and wallet QR voids whose cancellation code ended not applied, before a late application can be. Open by design, not stuck.",
          },
        },
        required: ['pending', 'deadLetters', 'oldestDeadline'],
      },
      tables: { type: 'object', properties: { version: { type: ['string', 'null'] } }, required: ['version'] },
      clock: nullable({
        type: 'object',
        properties: { hostOffsetMs: { ...int, description: "How far the acquirer's clock is ahead of ours." } },
        required: ['hostOffsetMs'],
      }),
      disk: nullable({
        type: 'object',
        description:
          'The state directory\'s disk (docs/operations.md, "Disk watched"): free space, what the terminal\'s files take, the rate the free space falls at and the days left before the write reserve.',
        properties: {
          freeBytes: int,
          totalBytes: int,
          dbBytes: int,
          walBytes: int,
          archiveBytes: int,
          logBytes: int,
          bytesPerDay: { type: ['integer', 'null'] },
          daysLeft: { type: ['number', 'null'] },
          autoVacuum: { type: 'string', enum: ['none', 'full', 'incremental'] },
          freePages: int,
        },
        required: ['freeBytes', 'dbBytes', 'walBytes', 'archiveBytes', 'logBytes', 'daysLeft'],
      }),
      alarms: {
        type: 'array',
        items: ref('Alarm'),
        description: "What holds now, then the engines' alarms of the last 24 hours.",
      },
    },
    required: ['status', 'problems', 'busy', 'pinpad', 'printer', 'acquirer', 'outbox', 'tables', 'clock', 'alarms'],
  },
  ...EVENT_SCHEMAS,
};
