/**
 * The API's contract, held by a maintained OpenAPI 3.1 validator (@hyperjump/json-schema, its
 * `openapi-3-1` dialect: JSON Schema 2020-12 with OpenAPI's vocabulary; docs/dependencies.md):
 * every JSON answer of the daemon is checked against the schema the committed document
 * (src/api/openapi.json) gives its operation and status, and every event of `GET /v1/events`
 * against `Event`. test/setup/contract.ts feeds it every answer the tests' HTTP clients receive.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

const DOCUMENT_URL = new URL('../../src/api/openapi.json', import.meta.url);
const DOCUMENT_URI = DOCUMENT_URL.href;

type Operation = { operationId?: string; responses?: Record<string, { content?: Record<string, unknown> }> };
type Validator = (value: unknown) => {
  valid: boolean;
  errors?: { instanceLocation: string; absoluteKeywordLocation: string }[];
};

/** What the run checked, and what it found at fault. */
export interface ContractTally {
  answers: number;
  events: number;
  failures: string[];
}

export const tally: ContractTally = { answers: 0, events: 0, failures: [] };

let document: { paths: Record<string, Record<string, Operation>> } | undefined;
const doc = (): NonNullable<typeof document> =>
  (document ??= JSON.parse(readFileSync(fileURLToPath(DOCUMENT_URL), 'utf8')) as NonNullable<typeof document>);

const pointer = (...parts: string[]): string =>
  parts.map((p) => `/${encodeURIComponent(p.replaceAll('~', '~0').replaceAll('/', '~1'))}`).join('');

/**
 * The validator runs in a worker thread of its own: compiling a schema takes the event loop for a while (a second
 * or more on a busy machine), which must not land in the middle of a sale (an acquirer timeout of 1.5 s in the e2e
 * rig), and each schema is compiled there at its first use, so a file pays only for the operations it calls. The
 * worker is plain JavaScript (no TypeScript loader in a worker); it loads the library from the project's root.
 */
const WORKER = `
const { parentPort } = require('node:worker_threads');
const library = (async () => {
  const oas = await import('@hyperjump/json-schema/openapi-3-1');
  const { BASIC } = await import('@hyperjump/json-schema/experimental');
  await import('@hyperjump/json-schema/formats'); // format validation (date-time, ...)
  oas.setShouldValidateFormat(true);
  return { oas, BASIC };
})();
const compiled = new Map();
parentPort.on('message', async ({ id, uri, value }) => {
  try {
    const { oas, BASIC } = await library;
    let validate = compiled.get(uri);
    if (!validate) compiled.set(uri, (validate = oas.validate(uri)));
    const r = (await validate)(value, BASIC);
    const errors = (r.errors || []).map((e) => ({ instanceLocation: e.instanceLocation, absoluteKeywordLocation: e.absoluteKeywordLocation }));
    parentPort.postMessage({ id, valid: r.valid, errors });
  } catch (e) {
    parentPort.postMessage({ id, error: String((e && e.stack) || e) });
  }
});
`;

type Outcome = ReturnType<Validator> & { error?: string };
let worker: Worker | undefined;
let nextId = 0;
const waiting = new Map<number, (o: Outcome) => void>();

function validatorWorker(): Worker {
  if (worker) return worker;
  const w = new Worker(WORKER, { eval: true });
  w.unref(); // a check in flight is awaited by the test (test/setup/contract.ts); the worker alone keeps nothing alive
  w.on('message', (o: Outcome & { id: number }) => {
    waiting.get(o.id)?.(o);
    waiting.delete(o.id);
  });
  w.on('error', (e) => {
    for (const done of waiting.values()) done({ valid: false, error: `the validator's worker failed: ${String(e)}` });
    waiting.clear();
    worker = undefined;
  });
  worker = w;
  return w;
}

/** The schema at `jsonPointer` in the document, applied to `value` in the worker. */
async function validate(jsonPointer: string, value: unknown): Promise<ReturnType<Validator>> {
  const id = nextId++;
  const outcome = await new Promise<Outcome>((resolve) => {
    waiting.set(id, resolve);
    validatorWorker().postMessage({ id, uri: `${DOCUMENT_URI}#${jsonPointer}`, value });
  });
  if (outcome.error !== undefined) throw new Error(outcome.error);
  return outcome;
}

/** Starts the validator's worker and loads its library, so the first check does not wait for them. */
export async function warmContract(): Promise<void> {
  await validate(pointer('components', 'schemas', 'Event'), {}).catch(() => undefined);
}

/** The documented path template `pathname` falls under (`/v1/payments/12/void` → `/v1/payments/{id}/void`). */
export function operationOf(method: string, pathname: string): { path: string; op: Operation } | undefined {
  // Segment by segment, empty ones kept: `//v1/health` or `/v1/health/` is not `/v1/health` (the router
  // answers 404 to both, an answer no operation declares).
  const got = pathname.split('/');
  for (const [template, ops] of Object.entries(doc().paths)) {
    const want = template.split('/');
    if (want.length !== got.length) continue;
    if (!want.every((w, i) => (w.startsWith('{') && w.endsWith('}') ? got[i] !== '' : w === got[i]))) continue;
    const op = ops[method.toLowerCase()];
    return op ? { path: template, op } : undefined;
  }
  return undefined;
}

const faults = (r: ReturnType<Validator>): string =>
  (r.errors ?? [])
    .map((e) => `${e.instanceLocation} (${e.absoluteKeywordLocation.replace(`${DOCUMENT_URI}#`, '')})`)
    .join('; ');

/**
 * Checks one JSON answer of the daemon: its operation must declare the status with
 * `application/json`, and the body must fit that schema. Answers to addresses the document does
 * not name (another server, a route that does not exist) are not the contract's.
 */
export async function checkAnswer(method: string, pathname: string, status: number, body: string): Promise<void> {
  const found = operationOf(method, pathname);
  if (!found) return;
  const name = `${method.toUpperCase()} ${found.path} (${found.op.operationId ?? '?'}) → ${status}`;
  tally.answers++;
  const declared = found.op.responses?.[String(status)]?.content?.['application/json'];
  if (!declared) {
    tally.failures.push(`${name}: the document declares no JSON answer for this status: ${body.slice(0, 300)}`);
    return;
  }
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    tally.failures.push(`${name}: the body is not JSON: ${body.slice(0, 300)}`);
    return;
  }
  const r = await validate(
    pointer(
      'paths',
      found.path,
      method.toLowerCase(),
      'responses',
      String(status),
      'content',
      'application/json',
      'schema',
    ),
    value,
  );
  if (!r.valid) tally.failures.push(`${name}: ${faults(r)} in ${JSON.stringify(value).slice(0, 600)}`);
}

/** Checks one event of `GET /v1/events`: `data:` fits `Event`, `event:` is its type and `id:` its seq. */
export async function checkEvent(block: { id?: string; event?: string; data: string }): Promise<void> {
  tally.events++;
  const name = `GET /v1/events (streamEvents) event ${block.event ?? '?'} id ${block.id ?? '?'}`;
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(block.data) as Record<string, unknown>;
  } catch {
    tally.failures.push(`${name}: data is not JSON: ${block.data.slice(0, 300)}`);
    return;
  }
  if (block.event !== value.type) tally.failures.push(`${name}: event: is not the data's type (${String(value.type)})`);
  if (block.id !== String(value.seq)) tally.failures.push(`${name}: id: is not the data's seq (${String(value.seq)})`);
  const r = await validate(pointer('components', 'schemas', 'Event'), value);
  if (!r.valid) tally.failures.push(`${name}: ${faults(r)} in ${block.data.slice(0, 600)}`);
}

/** Splits a `text/event-stream` as it arrives into its blocks; comments are dropped. */
export function eventStreamParser(onBlock: (b: { id?: string; event?: string; data: string }) => void) {
  let buffer = '';
  return (text: string): void => {
    buffer += text;
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const raw = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const block: { id?: string; event?: string; data: string } = { data: '' };
      let fields = 0;
      for (const line of raw.split('\n')) {
        if (line.startsWith(':')) continue;
        const i = line.indexOf(':');
        const field = i < 0 ? line : line.slice(0, i);
        const value = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '');
        fields++;
        if (field === 'id') block.id = value;
        else if (field === 'event') block.event = value;
        else if (field === 'data') block.data += block.data ? `\n${value}` : value;
      }
      if (fields > 0) onBlock(block);
    }
  };
}
