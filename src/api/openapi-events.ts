import { STATUSES } from './payments.js';
import { VOID_STATUSES } from './voids.js';
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

/** The fields of each event type (`type`, the SSE `event:` line), beside the ones every event has. */
function payload(type: EventType, statuses: readonly string[]): Schema {
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
  const [properties, required] = fields[type];
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
    ...(only ? {} : { oneOf: o.types.map((t) => payload(t, o.statuses)) }),
    unevaluatedProperties: false,
  };
}

const PAYMENT_TYPES: EventType[] = ['state', 'qr', 'alarm', 'receipt-question'];

/** The event stream's schemas: `Event` is one of them, told apart by `kind`. */
export const EVENT_SCHEMAS: Record<string, Schema> = {
  Event: {
    description:
      "One server-sent event (`event:` is its `type`, `id:` its `seq`, `data:` this object), told apart by `kind`: whose event it is (a card sale, a wallet QR sale, a Pix, a void or Pix refund, a wallet QR void's cancellation code). Then by `type`: `state` a status change, `qr` a code to show, `alarm` what needs a person, `receipt-question` whether the receipt came out, `prompt` what the pinpad shows the customer.",
    oneOf: [ref('SaleEvent'), ref('QrEvent'), ref('PixEvent'), ref('VoidEvent'), ref('VoidCancellationEvent')],
    discriminator: {
      propertyName: 'kind',
      mapping: {
        sale: '#/components/schemas/SaleEvent',
        qr: '#/components/schemas/QrEvent',
        pix: '#/components/schemas/PixEvent',
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
