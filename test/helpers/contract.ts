/**
 * The API's contract, held by a maintained OpenAPI 3.1 validator (@hyperjump/json-schema, its
 * `openapi-3-1` dialect: JSON Schema 2020-12 with OpenAPI's vocabulary; docs/dependencies.md):
 * every JSON answer of the daemon is checked against the schema the committed document
 * (src/api/openapi.json) gives its operation and status, and every event of `GET /v1/events`
 * against `Event`. test/setup/contract.ts feeds it every answer the tests' HTTP clients receive.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

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

let library: Promise<{ compile: (uri: string) => Promise<Validator> }> | undefined;
/** Loaded at the first answer to check: a test file that never calls the daemon pays nothing. */
function validatorLibrary(): Promise<{ compile: (uri: string) => Promise<Validator> }> {
  library ??= (async () => {
    const oas = await import('@hyperjump/json-schema/openapi-3-1');
    const { BASIC } = await import('@hyperjump/json-schema/experimental');
    const formats = '@hyperjump/json-schema/formats'; // format validation (date-time, …); the module has no types
    await import(formats);
    oas.setShouldValidateFormat(true);
    return {
      compile: async (uri: string) => {
        const validate = await oas.validate(uri);
        return (value: unknown) => validate(value as never, BASIC);
      },
    };
  })();
  return library;
}

const compiled = new Map<string, Promise<Validator>>();
function validatorAt(jsonPointer: string): Promise<Validator> {
  let v = compiled.get(jsonPointer);
  if (!v) {
    v = validatorLibrary().then((l) => l.compile(`${DOCUMENT_URI}#${jsonPointer}`));
    compiled.set(jsonPointer, v);
  }
  return v;
}

/**
 * Compiles every answer's and the event's validator now. A helper that starts a daemon in the test's
 * own process calls it first: compiling takes the event loop for a while (a second or more on a busy
 * machine), which must not land in the middle of a sale (an acquirer timeout of 1.5 s in the e2e rig).
 */
export async function warmContract(): Promise<void> {
  const pointers = [pointer('components', 'schemas', 'Event')];
  for (const [path, ops] of Object.entries(doc().paths))
    for (const [method, op] of Object.entries(ops))
      for (const [status, r] of Object.entries(op.responses ?? {}))
        if (r.content?.['application/json'])
          pointers.push(pointer('paths', path, method, 'responses', status, 'content', 'application/json', 'schema'));
  for (const p of pointers) await validatorAt(p);
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
  const validate = await validatorAt(
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
  );
  const r = validate(value);
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
  const r = (await validatorAt(pointer('components', 'schemas', 'Event')))(value);
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
