import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { isOmniposError } from '../core/index.js';
import type { SavedCardShown, SupervisorGate } from '../engine/index.js';
import { BRAND, HOLDER, idempotencyKeyOf, type CnpSalesApiDeps } from './card-not-present.js';
import { ApiError, houseMessage, invalidField, readJson, refuseBody, sendJson } from './http-kit.js';
import { error, int, json, ref, rowIdParameter, str, time, UNAUTHORIZED, type Schema } from './openapi-kit.js';
import { BODY_ERRORS, SUPERVISOR_ERRORS, TYPED_ERRORS } from './openapi-errors.js';
import { operationsOf } from './routes.js';
import { supervisorCredential } from './supervisor-headers.js';

/**
 * The saved cards through the local API: a card saved alone at the host (typed on the pinpad), the
 * list (masked number, brand, backend: never the token), one read, and its removal (the supervisor's
 * credential). A sale by a saved card is `POST /v1/card-not-present/sales` with `savedCardId`.
 */
export interface CnpCardsApiDeps extends CnpSalesApiDeps {
  /** The supervisor's gate (the voids' one): removing a saved card needs a supervisor. */
  supervisor?: Pick<SupervisorGate, 'authorize'> | undefined;
}

const CARDS = '/v1/card-not-present/cards';

/** The body of `POST /v1/card-not-present/cards`: never the card, which is typed on the pinpad. */
export const SaveCardBody = z.strictObject({ holder: HOLDER, brand: BRAND.optional() });

/** A saved card as the API shows it: what may be shown, never its token. */
export function savedCardView(c: SavedCardShown): Record<string, unknown> {
  return { id: c.id, maskedPan: c.maskedNumber, brand: c.brand, backend: c.backend, createdAt: c.createdAt };
}

function cnpOf(deps: CnpSalesApiDeps): NonNullable<CnpSalesApiDeps['cnp']> {
  if (!deps.cnp?.engine.savedCards)
    throw new ApiError(409, 'NOT_AVAILABLE', 'saved cards need cardNotPresent in the configuration');
  return deps.cnp;
}

function savedCardOf(deps: CnpSalesApiDeps, raw: string): SavedCardShown {
  const card = /^\d{1,12}$/.test(raw) ? cnpOf(deps).engine.savedCards?.get(Number(raw)) : undefined;
  if (!card) throw new ApiError(404, 'NOT_FOUND', `no saved card ${raw}`);
  return card;
}

/**
 * `POST /v1/card-not-present/cards`: the pinpad asks the card (number, expiry, security code), the
 * host saves it and answers its token, kept sealed. No money moves, nothing is journaled. The same
 * Idempotency-Key answers the card it saved (200), nothing typed; its brand, when the body names
 * one, must be that card's (422 otherwise): the holder is not kept, so not compared.
 */
async function saveCard(req: IncomingMessage, res: ServerResponse, deps: CnpSalesApiDeps): Promise<void> {
  const key = idempotencyKeyOf(req);
  const parsed = SaveCardBody.safeParse(await readJson(req), { error: houseMessage });
  if (!parsed.success) throw invalidField(parsed.error);
  const cnp = cnpOf(deps);
  const { holder, brand } = parsed.data;
  const again = key ? cnp.engine.savedCards?.byIdempotencyKey(key) : undefined;
  if (again && brand !== undefined && brand.toLowerCase() !== again.brand.toLowerCase())
    throw new ApiError(
      422,
      'IDEMPOTENCY_KEY_REUSED',
      'Idempotency-Key saved a card of another brand',
      'Idempotency-Key',
    );
  if (again) return sendJson(res, 200, savedCardView(again));
  deps.pinpadOpen?.();
  const gone = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  let saved;
  try {
    const read = () => cnp.typedCard({ holder, ...(brand ? { brand } : {}) }, gone.signal);
    saved = await cnp.engine.saveCard(read, key ? { idempotencyKey: key } : {});
  } catch (e) {
    if (isOmniposError(e, 'ENGINE_BUSY')) throw new ApiError(409, 'BUSY', 'the terminal is busy with a payment');
    if (isOmniposError(e, 'INVALID_FIELD') && typeof e.context.field === 'string')
      throw new ApiError(400, 'INVALID_FIELD', e.message, e.context.field);
    throw e;
  }
  if (saved.kind === 'refused') throw new ApiError(422, 'CNP_HOST_REFUSED', `the host refused it: ${saved.detail}`);
  if (saved.kind === 'unknown')
    throw new ApiError(
      504,
      'ACQUIRER_UNKNOWN_OUTCOME',
      `the host's answer was lost (${saved.detail}): nothing was kept; save it again`,
    );
  const view = savedCardView(saved.card);
  sendJson(res, saved.again ? 200 : 201, view, saved.again ? {} : { location: `${CARDS}/${saved.card.id}` });
}

/** `DELETE /v1/card-not-present/cards/{id}`: the supervisor authorizes it; the sealed token is gone from the disk. */
function removeCard(req: IncomingMessage, res: ServerResponse, deps: CnpCardsApiDeps, raw: string): void {
  refuseBody(req);
  const card = savedCardOf(deps, raw);
  if (!deps.supervisor)
    throw new ApiError(409, 'NOT_AVAILABLE', 'this daemon has no supervisor to authorize removing a saved card');
  deps.supervisor.authorize(supervisorCredential(req), 'removing a saved card');
  if (!cnpOf(deps).engine.savedCards?.remove(card.id)) throw new ApiError(404, 'NOT_FOUND', `no saved card ${raw}`);
  sendJson(res, 200, savedCardView(card));
}

/** The saved card's schemas (the document's `SavedCard`, `SavedCardList`, `SavedCardRequest`). */
export const CNP_CARD_SCHEMAS: Record<string, Schema> = {
  SavedCardRequest: (() => {
    const { $schema: _drop, ...schema } = z.toJSONSchema(SaveCardBody, { io: 'input' }) as Schema;
    return schema;
  })(),
  SavedCard: {
    type: 'object',
    required: ['id', 'maskedPan', 'brand', 'backend', 'createdAt'],
    properties: {
      id: { ...int, description: 'The saved card: `savedCardId` of a sale by it.' },
      maskedPan: { ...str, description: 'First 6 and last 4 digits at most. The token is never shown.' },
      brand: str,
      backend: {
        type: 'string',
        description: 'The host that holds its token (`ecommerce`, `webservice15`): it sells through that one only.',
      },
      createdAt: time,
    },
  },
  SavedCardList: {
    type: 'object',
    required: ['cards'],
    properties: { cards: { type: 'array', items: ref('SavedCard') } },
  },
};

const ID = rowIdParameter('The saved card (its id).');
const card = (d: string): Schema => json(ref('SavedCard'), d);

const op = operationsOf<CnpCardsApiDeps>();

/** Save a card alone, list, read and remove saved cards. */
export const CNP_CARD_OPERATIONS = [
  op({
    method: 'POST',
    path: CARDS,
    operationId: 'saveCardNotPresentCard',
    tag: 'card-not-present',
    screens: { cashier: 'any' },
    errors: [
      ...BODY_ERRORS,
      'BUSY',
      'IDEMPOTENCY_KEY_REUSED',
      'NOT_AVAILABLE',
      ...TYPED_ERRORS,
      'CNP_HOST_REFUSED',
      'ACQUIRER_UNKNOWN_OUTCOME',
    ],
    summary: 'Save a card at the host without a sale, its card typed on the pinpad',
    description:
      'The pinpad asks the card number, the expiry and the security code (as a phone order), the host saves it (`POST /1/card`; the webservice 1.5 `requisicao-token`) and its token is kept sealed on the terminal; nothing is charged or journaled. Sell by it with `savedCardId` on `POST /v1/card-not-present/sales`.',
    parameters: [
      {
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description:
          'The same key returns the card it saved (200), nothing typed, while that card is kept; with another `brand`, 422 `IDEMPOTENCY_KEY_REUSED` (the holder is not kept, so not compared). Scope: the saved cards.',
        schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,64}$' },
      },
    ],
    requestBody: { required: true, content: { 'application/json': { schema: ref('SavedCardRequest') } } },
    responses: {
      '200': card('The card this Idempotency-Key already saved.'),
      '201': { ...card('Saved.'), headers: { Location: { schema: str } } },
      '400': error('A field at fault (`field`), or a body that is not JSON.'),
      '401': UNAUTHORIZED,
      '409': error('BUSY, CNP_TYPING_CANCELLED (nothing typed), NOT_AVAILABLE (no `cardNotPresent`).'),
      '413': error('A body larger than 64 KiB.'),
      '415': error('A body that is not application/json.'),
      '422': error(
        'IDEMPOTENCY_KEY_REUSED, the typed card refused before sending, or CNP_HOST_REFUSED (the host refused to save it).',
      ),
      '503': error('The pinpad or the disk cannot take it now, or the BIN lookup did not answer.'),
      '504': error("The host's answer was lost: nothing was kept; save it again."),
    },
    handle: ({ req, res }, deps) => saveCard(req, res, deps),
  }),
  op({
    method: 'GET',
    path: CARDS,
    operationId: 'listCardNotPresentCards',
    tag: 'card-not-present',
    screens: { cashier: 'any' },
    errors: ['NOT_AVAILABLE'],
    summary: 'List the saved cards, newest first: masked number, brand, backend (never the token)',
    responses: {
      '200': json(ref('SavedCardList'), 'Every saved card.'),
      '401': UNAUTHORIZED,
      '409': error('NOT_AVAILABLE: no `cardNotPresent`.'),
    },
    handle: ({ res }, deps) =>
      sendJson(res, 200, { cards: (cnpOf(deps).engine.savedCards?.list() ?? []).map(savedCardView) }),
  }),
  op({
    method: 'GET',
    path: `${CARDS}/{id}`,
    operationId: 'getCardNotPresentCard',
    tag: 'card-not-present',
    screens: { cashier: 'any' },
    errors: ['NOT_FOUND', 'NOT_AVAILABLE'],
    summary: 'Read a saved card',
    parameters: [ID],
    responses: {
      '200': card('The saved card.'),
      '401': UNAUTHORIZED,
      '404': error('No such saved card.'),
      '409': error('NOT_AVAILABLE: no `cardNotPresent`.'),
    },
    handle: ({ res, params }, deps) => sendJson(res, 200, savedCardView(savedCardOf(deps, params.id))),
  }),
  op({
    method: 'DELETE',
    path: `${CARDS}/{id}`,
    operationId: 'removeCardNotPresentCard',
    tag: 'card-not-present',
    screens: { cashier: 'any' },
    errors: ['INVALID_BODY', ...SUPERVISOR_ERRORS, 'NOT_FOUND', 'NOT_AVAILABLE'],
    summary: 'Remove a saved card: its sealed token erased from the disk, with a supervisor',
    description:
      "A supervisor authorizes it (`X-Supervisor-Token` or `X-Supervisor-Password`, as voids). The row is deleted with SQLite's `secure_delete` and the WAL truncated: neither the sealed token nor its row stays in the files. Nothing is sent to the host: the terminal forgets the token, and nothing sells by it from this terminal again.",
    parameters: [
      ID,
      { name: 'X-Supervisor-Token', in: 'header', required: false, schema: str },
      { name: 'X-Supervisor-Password', in: 'header', required: false, schema: str },
    ],
    responses: {
      '200': card('Removed: the card as it was.'),
      '400': error('A body was sent.'),
      '401': UNAUTHORIZED,
      '403': error('SUPERVISOR_REQUIRED: no supervisor credential, or a wrong one.'),
      '404': error('No such saved card.'),
      '409': error('NOT_AVAILABLE (no `cardNotPresent`), or SUPERVISOR_NOT_CONFIGURED.'),
    },
    handle: ({ req, res, params }, deps) => removeCard(req, res, deps, params.id),
  }),
];
