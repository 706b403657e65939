import { STATUSES } from './payments.js';
import { VOID_STATUSES } from './voids.js';
import { CNP_PROMPT_CODES, NO_ROW_YET } from '../engine/index.js';
import { int, ref, str, time, type Schema } from './openapi-kit.js';

/** What the pinpad asks or tells during a card sale (`prompt` events; src/engine/ports.ts CardPromptCode). */
const PROMPTS = [
  'insert-card',
  'see-phone',
  'one-card',
  'enter-pin',
  'choose-product',
  'typed-entry',
  'processing',
  'remove-card',
  'message',
];

type EventType = 'state' | 'qr' | 'alarm' | 'receipt-question' | 'prompt';

/** A card-not-present typing's prompt: which field the pinpad asks for, before the sale's row opens. */
const CNP_PROMPT: [Record<string, Schema>, string[]] = [
  {
    id: { const: NO_ROW_YET, description: 'No payment yet: the card is typed before the sale is journaled.' },
    prompt: { type: 'string', enum: [...CNP_PROMPT_CODES], description: 'The field the pinpad asks for.' },
    text: { ...str, description: 'The text on the pinpad, one line (Portuguese); never a digit typed.' },
    idempotencyKey: {
      ...str,
      description: 'The `Idempotency-Key` of the request that asked for the card, when it had one.',
    },
  },
  ['prompt', 'text'],
];

/** The fields of each event type (`type`, the SSE `event:` line), beside the ones every event has. */
function payload(type: EventType, statuses: readonly string[], cnp = false): Schema {
  const fields: Record<EventType, [Record<string, Schema>, string[]]> = {
    state: [
      {
        merchantOrderId: str,
        state: { ...str, description: 'The engine state behind the status (for support); it may still move.' },
        status: { type: 'string', enum: statuses },
        input: { ...str, description: 'What moved it (for support).' },
      },
      ['merchantOrderId', 'state', 'status', 'input'],
    ],
    qr: [
      {
        qrCode: { ...str, description: 'The code to show.' },
        expiresAt: { ...time, description: 'Until when it is paid.' },
      },
      ['qrCode', 'expiresAt'],
    ],
    alarm: [{ code: str, message: str }, ['code', 'message']],
    'receipt-question': [{}, []],
    prompt: [
      {
        merchantOrderId: str,
        prompt: { type: 'string', enum: PROMPTS, description: 'What the pinpad asks or tells.' },
        text: { ...str, description: 'The text on the pinpad, one line (Portuguese).' },
      },
      ['merchantOrderId', 'prompt', 'text'],
    ],
  };
  const [properties, required] = cnp && type === 'prompt' ? CNP_PROMPT : fields[type];
  return { properties: { type: { const: type }, ...properties }, required: ['type', ...required] };
}

/** One event family: its `kind`, what `id` names, the types it sends and the statuses its state events carry. */
function family(o: {
  kind: string;
  description: string;
  id: string;
  types: EventType[];
  statuses: readonly string[];
  saleId?: boolean;
  cnp?: boolean;
}): Schema {
  // One type: its fields in place (a oneOf of one is no choice).
  const only = o.types.length === 1 ? payload(o.types[0] as EventType, o.statuses) : undefined;
  return {
    type: 'object',
    description: o.description,
    properties: {
      ...(only?.properties as Record<string, Schema> | undefined),
      kind: { const: o.kind },
      type: { type: 'string', enum: o.types },
      seq: {
        ...int,
        description:
          'In the order things happened; grows across daemon restarts and is never given twice. The `id:` of the event.',
      },
      at: time,
      id: { ...int, description: o.id },
      ...(o.saleId ? { saleId: { ...int, description: 'The payment the void gives money back for.' } } : {}),
    },
    required: [
      ...new Set([
        'kind',
        'type',
        'seq',
        'at',
        'id',
        ...(o.saleId ? ['saleId'] : []),
        ...((only?.required as []) ?? []),
      ]),
    ],
    ...(only ? {} : { oneOf: o.types.map((t) => payload(t, o.statuses, o.cnp)) }),
    unevaluatedProperties: false,
  };
}

const PAYMENT_TYPES: EventType[] = ['state', 'qr', 'alarm', 'receipt-question'];

/** The event stream's schemas: `Event` is one of them, told apart by `kind`. */
export const EVENT_SCHEMAS: Record<string, Schema> = {
  Event: {
    description:
      "One server-sent event (`event:` is its `type`, `id:` its `seq`, `data:` this object), told apart by `kind`: whose event it is (a card sale, a wallet QR sale, a Pix, a sale without the card present, a void or Pix refund, a wallet QR void's cancellation code). Then by `type`: `state` a status change, `qr` a code to show, `alarm` what needs a person, `receipt-question` whether the receipt came out, `prompt` what the pinpad shows the customer.",
    oneOf: [
      ref('SaleEvent'),
      ref('QrEvent'),
      ref('PixEvent'),
      ref('CnpEvent'),
      ref('VoidEvent'),
      ref('VoidCancellationEvent'),
    ],
    discriminator: {
      propertyName: 'kind',
      mapping: {
        sale: '#/components/schemas/SaleEvent',
        qr: '#/components/schemas/QrEvent',
        pix: '#/components/schemas/PixEvent',
        cnp: '#/components/schemas/CnpEvent',
        void: '#/components/schemas/VoidEvent',
        'void-cancellation': '#/components/schemas/VoidCancellationEvent',
      },
    },
  },
  SaleEvent: family({
    kind: 'sale',
    description: "A card sale's event; `status` is the payment's (`GET /v1/payments/{id}`).",
    id: 'The payment.',
    types: ['state', 'alarm', 'receipt-question', 'prompt'],
    statuses: STATUSES,
  }),
  QrEvent: family({
    kind: 'qr',
    description: "A wallet QR sale's event; `qr` carries the code to show.",
    id: 'The payment.',
    types: PAYMENT_TYPES,
    statuses: STATUSES,
  }),
  PixEvent: family({
    kind: 'pix',
    description: "A Pix sale's event; `qr` carries the copy-and-paste code to show.",
    id: 'The payment.',
    types: PAYMENT_TYPES,
    statuses: STATUSES,
  }),
  CnpEvent: family({
    kind: 'cnp',
    description:
      "A sale without the card present's event (`POST /v1/card-not-present/sales`); `status` is the payment's (`GET /v1/payments/{id}`). Its `prompt`s come while the card is typed on the pinpad, before the sale is journaled: `id` -1, the field asked for and the pinpad's text, never a digit.",
    id: 'The payment (`GET /v1/card-not-present/sales/{id}`); -1 on a `prompt`, told before the sale is journaled.',
    types: ['state', 'alarm', 'prompt'],
    statuses: STATUSES,
    cnp: true,
  }),
  VoidEvent: family({
    kind: 'void',
    description:
      "A void's (or a Pix refund's) event; `status` is the void's (`GET /v1/voids/{id}`), `saleId` the payment.",
    id: 'The void (`GET /v1/voids/{id}`), not the payment.',
    types: ['state', 'alarm', 'receipt-question'],
    statuses: VOID_STATUSES,
    saleId: true,
  }),
  VoidCancellationEvent: family({
    kind: 'void-cancellation',
    description: "A wallet QR void's cancellation code to show the customer, who pays it with the wallet.",
    id: 'The void (`GET /v1/voids/{id}`), not the payment.',
    types: ['qr'],
    statuses: VOID_STATUSES,
    saleId: true,
  }),
};
