// What the chaos run draws from: the customers' cards, the virtual pinpad's faults and the host's.

/** Credit cards of the virtual pinpad's test table (src/sim/pinpad), and how each is presented. */
export const CREDIT_CARDS = [
  { name: 'sandbox card ending 0', via: 'chip' },
  { name: 'mastercard credit', via: 'contactless' },
  { name: 'mastercard credit', via: 'chip' },
  { name: 'elo credit', via: 'chip' },
  { name: 'amex credit', via: 'contactless' },
  { name: 'chip fails', via: 'chip' },
  { name: 'sandbox stripe card', via: 'stripe' },
] as const;
/** Debit cards, likewise. */
export const DEBIT_CARDS = [
  { name: 'visa debit', via: 'chip' },
  { name: 'visa debit', via: 'contactless' },
] as const;
// src/sim/pinpad/README.md, "Faults": the first four from before, the rest the strict pinpad's (issue 18).
export const PINPAD_FAULTS = [
  { kind: 'delay', ms: 300 },
  { kind: 'lost-ack' },
  { kind: 'bad-crc' },
  { kind: 'garbage' },
  { kind: 'garbage', bytes: 16, control: true },
  { kind: 'truncated-answer' },
  { kind: 'lost-answer' },
  { kind: 'can-drops-emv' },
  { kind: 'disconnect', when: 'mid-answer', replugAfterMs: 500 },
] as const;
export const pinpadFaultName = (f: (typeof PINPAD_FAULTS)[number]): string =>
  'control' in f ? 'garbage+control' : 'when' in f ? `disconnect-${f.when}+replug` : f.kind;

// Host faults: the transport's, on any route; and the host's published errors (tables/sandbox/published-errors.json:
// 0 internal error, 307 not found, 308 not available to capture, 309 not available to void) on the routes that
// change a sale, answered before the host did the work or after it (`handled`): the client must query, never decide.
export const FAULTS = [
  { latencyMs: 700 },
  { status: 503 },
  { reset: 'before' },
  { reset: 'after' },
  { drop: true },
] as const;
export const ROUTES = [
  'saleCreate',
  'saleConfirm',
  'saleUndo',
  'saleUndoByOrderId',
  'saleGetByOrderId',
  'omniToken',
] as const;
/** The e-commerce host's routes of a card-not-present sale (src/sandbox/routes.ts): its transport faults only. */
export const CNP_ROUTES = [
  'ecommerceSaleCreate',
  'ecommerceSaleCapture',
  'ecommerceSaleVoid',
  'ecommerceSaleVoidByOrderId',
  'ecommerceSaleGet',
  'ecommerceSalesByOrderId',
  'ecommerceCardBin',
] as const;
/** The webservice 1.5's messages of a card-not-present sale (src/sandbox/webservice15/faults.ts): the same transport faults. */
export const WS15_ROUTES = ['ws15Transaction', 'ws15Capture', 'ws15Cancel', 'ws15Query'] as const;
/** A transport fault's name in the run's figures (`status:503`, `reset:after`…). */
export const faultName = (f: (typeof FAULTS)[number]): string =>
  Object.entries(f)
    .map(([k, v]) => `${k}:${String(v)}`)
    .join(',');
export const ERROR_ROUTES = ['saleConfirm', 'saleUndo', 'saleUndoByOrderId', 'voidCreate', 'voidConfirm'] as const;
export const ERRORS = [
  { error: 0, errorStatus: 500 },
  { error: 307, errorStatus: 404 },
  { error: 308, errorStatus: 400 },
  { error: 309, errorStatus: 400 },
] as const;
