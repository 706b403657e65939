import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { isOmniposError } from '../core/index.js';
import type { CnpEngine, SupervisorGate } from '../engine/index.js';
import type { Journal } from '../store/index.js';
import { ApiError, houseMessage, invalidField, readJson, sendJson } from './http-kit.js';
import { error, int, json, ref, rowIdParameter, str, UNAUTHORIZED, type Schema } from './openapi-kit.js';
import { BODY_ERRORS, SUPERVISOR_ERRORS } from './openapi-errors.js';
import { paymentView } from './payment-view.js';
import { operationsOf } from './routes.js';
import { supervisorCredential } from './supervisor-headers.js';

/** What the capture and void routes of a card-not-present sale need of the daemon. */
export interface CnpCaptureApiDeps {
  /** The card-not-present engine (absent without `cardNotPresent`: the routes answer 409 NOT_AVAILABLE). */
  cnpEngine?: Pick<CnpEngine, 'change'> | undefined;
  journal: Journal;
  /** The supervisor's gate (the card voids' one): a void needs a supervisor. */
  supervisor?: Pick<SupervisorGate, 'authorize'> | undefined;
}

/** The body of both routes: `{amount?}`, cents; absent: the whole (what is authorized, or what remains captured). */
const ChangeBody = z.strictObject({
  amount: z.number().int('must be a whole number of cents').positive('must be more than 0').max(99_999_999).optional(),
});

/**
 * `POST /v1/card-not-present/sales/{id}/capture` and `…/void`: the engine checks the host's rules
 * (409 NOT_ALLOWED: not a pre-authorization, captured already, past the deadline, a partial void of
 * a pre-authorization; 400: an amount above what may be captured or voided), journals the change
 * and sends it. 200: the host's answer moved the sale; 202: the answer was lost and the outbox
 * settles it (read the sale); 422 CNP_HOST_REFUSED: the host refused it, nothing changed.
 */
async function change(
  req: IncomingMessage,
  res: ServerResponse,
  deps: CnpCaptureApiDeps,
  rawId: string,
  op: 'capture' | 'void',
): Promise<void> {
  const id = /^\d{1,12}$/.test(rawId) ? Number(rawId) : undefined;
  const entry = id !== undefined ? deps.journal.get(id) : undefined;
  if (id === undefined || entry?.kind !== 'cnp')
    throw new ApiError(404, 'NOT_FOUND', `no card-not-present sale ${rawId}`);
  const parsed = ChangeBody.safeParse(req.headers['content-length'] === '0' ? {} : await readJson(req), {
    error: houseMessage,
  });
  if (!parsed.success) throw invalidField(parsed.error);
  if (!deps.cnpEngine)
    throw new ApiError(409, 'NOT_AVAILABLE', 'card-not-present sales are not available in this daemon');
  if (op === 'void') {
    if (!deps.supervisor) throw new ApiError(409, 'NOT_AVAILABLE', 'this daemon has no supervisor to authorize voids');
    deps.supervisor.authorize(supervisorCredential(req), 'voiding a card-not-present sale');
  }
  let result;
  try {
    result = await deps.cnpEngine.change(id, op, parsed.data.amount);
  } catch (e) {
    if (isOmniposError(e, 'INVALID_ARGUMENT')) throw new ApiError(400, 'INVALID_FIELD', e.message, 'amount');
    throw e;
  }
  if (result.outcome === 'refused') throw new ApiError(422, 'CNP_HOST_REFUSED', result.detail);
  sendJson(res, result.outcome === 'done' ? 200 : 202, paymentView(result.entry), {
    location: `/v1/payments/${id}`,
  });
}

const ID = rowIdParameter('The card-not-present sale (its payment id).');
const BODY = {
  required: false,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        properties: { amount: { ...int, minimum: 1, description: 'Cents; default: the whole.' } },
        additionalProperties: false,
      },
    },
  },
};

const answers = (what: string): Record<string, Schema> => ({
  '200': json(ref('Payment'), `The host's answer: the sale ${what}.`),
  '202': json(
    ref('Payment'),
    "The answer was lost: the sale stays `capturing` or `voiding` until the outbox settles it by the host's query (read `GET /v1/payments/{id}`).",
  ),
  '400': error('A body field at fault (`field`): an amount above what may be captured or voided.'),
  '401': UNAUTHORIZED,
  '404': error('No such card-not-present sale.'),
  '422': error('CNP_HOST_REFUSED: the host refused it (its code in the message); the sale is as it was.'),
});
const op = operationsOf<CnpCaptureApiDeps>();

/** Capture or void a card-not-present sale. */
export const CNP_CAPTURE_OPERATIONS = [
  op({
    method: 'POST',
    path: '/v1/card-not-present/sales/{id}/capture',
    operationId: 'captureCardNotPresentSale',
    tag: 'card-not-present',
    screens: { cashier: 'own' },
    errors: [...BODY_ERRORS, 'NOT_FOUND', 'NOT_ALLOWED', 'NOT_AVAILABLE', 'CNP_HOST_REFUSED'],
    summary: "Capture a card-not-present pre-authorization, whole or in part, within the host's deadline",
    description:
      "Once only (a part captures once: ecom:6078-6080); within the host's deadline (15 days on the e-commerce API, ecom:6072; 5 on the webservice 1.5, ws15:1376). Journaled before it leaves.",
    parameters: [ID],
    requestBody: BODY,
    responses: {
      ...answers('captured (`capturedAmount`)'),
      '409': error(
        'NOT_ALLOWED (not a pre-authorization, captured already, or past the deadline) or NOT_AVAILABLE (no card-not-present backend).',
      ),
    },
    handle: ({ req, res, params }, deps) => change(req, res, deps, params.id, 'capture'),
  }),
  op({
    method: 'POST',
    path: '/v1/card-not-present/sales/{id}/void',
    operationId: 'voidCardNotPresentSale',
    tag: 'card-not-present',
    screens: { cashier: 'own' },
    errors: [...BODY_ERRORS, ...SUPERVISOR_ERRORS, 'NOT_FOUND', 'NOT_ALLOWED', 'NOT_AVAILABLE', 'CNP_HOST_REFUSED'],
    summary: 'Void a card-not-present sale: a pre-authorization whole, a captured sale whole or in part',
    description:
      'A supervisor authorizes it (`X-Supervisor-Token` or `X-Supervisor-Password`, as card voids). A part leaves the sale captured for the rest (ecom:6313-6330; ws15:1460); the whole leaves it `voided`. Journaled before it leaves.',
    parameters: [
      ID,
      { name: 'X-Supervisor-Token', in: 'header', required: false, schema: str },
      { name: 'X-Supervisor-Password', in: 'header', required: false, schema: str },
    ],
    requestBody: BODY,
    responses: {
      ...answers('voided, or captured for what remains (`voidedAmount`)'),
      '403': error('SUPERVISOR_REQUIRED: no supervisor credential, or a wrong one.'),
      '409': error(
        'NOT_ALLOWED (not pre-authorized nor captured, or a part of a pre-authorization), NOT_AVAILABLE, or SUPERVISOR_NOT_CONFIGURED.',
      ),
    },
    handle: ({ req, res, params }, deps) => change(req, res, deps, params.id, 'void'),
  }),
];
