import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, sendJson } from './http-kit.js';
import { SECURITY_HEADERS } from './screens.js';
import type { OperationDoc } from './openapi-operations.js';

/**
 * The API's reference for people: `GET /v1/docs`, one HTML page rendered on the daemon from the
 * same OpenAPI document `GET /v1/openapi.json` serves. No script, no inline style, nothing from
 * another origin (its stylesheet is `/screens/reference.css`): it is served under the screens'
 * CSP, and reads the same on a terminal without Internet.
 */

type Doc = Record<string, unknown>;
type Obj = Record<string, unknown>;

/**
 * True when the request's `Accept` takes `type` (no header, `*\/*`, `major/*` or the type; a
 * `q=0` refuses). Both reference routes answer 406 otherwise.
 */
export function accepts(req: IncomingMessage, type: string): boolean {
  const header = req.headers.accept;
  if (header === undefined || header.trim() === '') return true;
  const [major] = type.split('/');
  return header.split(',').some((part) => {
    const [range = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    if (q !== undefined && Number(q.slice(2)) === 0) return false;
    return range === '*/*' || range === `${major}/*` || range === type;
  });
}

function negotiate(req: IncomingMessage, type: string): void {
  if (!accepts(req, type))
    throw new ApiError(
      406,
      'NOT_ACCEPTABLE',
      `this route answers ${type} only (Accept: ${String(req.headers.accept).slice(0, 80)})`,
    );
}

/**
 * The OpenAPI document of `operations` (src/api/operations.ts): its module (every route's zod schema
 * turned into JSON Schema) is loaded at the first request for it, not when the daemon starts (fast
 * start: test/unit/main.lazy.test.ts).
 */
const document = async (operations: readonly OperationDoc[]): Promise<Doc> =>
  (await import('./openapi.js')).openApiDocument(operations);

/** `GET /v1/openapi.json`. */
export async function serveDocument(
  req: IncomingMessage,
  res: ServerResponse,
  operations: readonly OperationDoc[],
): Promise<void> {
  negotiate(req, 'application/json');
  sendJson(res, 200, await document(operations));
}

/** `GET /v1/events.openapi.json`: the event stream's own document (OpenAPI 3.2, `itemSchema`). */
export async function serveStreamDocument(req: IncomingMessage, res: ServerResponse): Promise<void> {
  negotiate(req, 'application/json');
  sendJson(res, 200, (await import('./openapi-stream.js')).eventStreamDocument());
}

let page: string | undefined;

/** `GET /v1/docs`: rendered once (the document does not change while the daemon runs). */
export async function serveReference(
  req: IncomingMessage,
  res: ServerResponse,
  operations: readonly OperationDoc[],
): Promise<void> {
  negotiate(req, 'text/html');
  page ??= renderReference(await document(operations));
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', ...SECURITY_HEADERS });
  res.end(page);
}

const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Prose from the document: escaped, with its `code` spans as <code>. */
const prose = (s: unknown): string => (typeof s === 'string' ? esc(s).replace(/`([^`]+)`/g, '<code>$1</code>') : '');

const refName = (ref: string): string => ref.replace('#/components/schemas/', '');

/** A schema in one line: a link for a `$ref`, the type with its enum, pattern or items. */
function typeOf(schema: unknown): string {
  if (!schema || typeof schema !== 'object') return '';
  const s = schema as Obj;
  if (typeof s.$ref === 'string') return `<a href="#schema-${esc(refName(s.$ref))}">${esc(refName(s.$ref))}</a>`;
  if (Array.isArray(s.anyOf)) return s.anyOf.map(typeOf).join(' | ');
  if (Array.isArray(s.oneOf)) return s.oneOf.map(typeOf).join(' | ');
  const type = Array.isArray(s.type) ? s.type.join(' | ') : typeof s.type === 'string' ? s.type : 'any';
  if (type === 'array') return `array of ${typeOf(s.items)}`;
  const extra: string[] = [];
  if (Array.isArray(s.enum))
    extra.push(`one of ${s.enum.map((v) => `<code>${esc(JSON.stringify(v))}</code>`).join(', ')}`);
  if (s.const !== undefined) extra.push(`always <code>${esc(JSON.stringify(s.const))}</code>`);
  if (typeof s.format === 'string') extra.push(esc(s.format));
  if (typeof s.pattern === 'string') extra.push(`<code>${esc(s.pattern)}</code>`);
  if (s.default !== undefined) extra.push(`default <code>${esc(JSON.stringify(s.default))}</code>`);
  if (type === 'object' && s.additionalProperties && typeof s.additionalProperties === 'object')
    extra.push(`values ${typeOf(s.additionalProperties)}`);
  return `${esc(type)}${extra.length ? ` (${extra.join('; ')})` : ''}`;
}

/** An object schema's properties as a table (nested objects inline, one level). */
function properties(schema: Obj): string {
  const props = (schema.properties ?? {}) as Record<string, Obj>;
  const required = new Set((schema.required ?? []) as string[]);
  const rows = Object.entries(props).map(([name, p]) => {
    const inner = p.type === 'object' && p.properties ? properties(p) : '';
    return `<tr><td><code>${esc(name)}</code>${required.has(name) ? ' <span class="req">required</span>' : ''}</td><td>${typeOf(p)}</td><td>${prose(p.description)}${inner}</td></tr>`;
  });
  return rows.length
    ? `<table><thead><tr><th>field</th><th>type</th><th>meaning</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
    : '';
}

function operation(method: string, path: string, op: Obj): string {
  const id = typeof op.operationId === 'string' ? op.operationId : `${method}-${path}`;
  const params = ((op.parameters ?? []) as Obj[]).map(
    (p) =>
      `<tr><td><code>${esc(String(p.name))}</code> (${esc(String(p.in))})${p.required === true ? ' <span class="req">required</span>' : ''}</td><td>${typeOf(p.schema)}</td><td>${prose(p.description)}</td></tr>`,
  );
  const body = op.requestBody as Obj | undefined;
  const bodySchema = (body?.content as Record<string, Obj> | undefined)?.['application/json']?.schema as
    Obj | undefined;
  const responses = Object.entries((op.responses ?? {}) as Record<string, Obj>).map(([status, r]) => {
    const types = Object.entries((r.content ?? {}) as Record<string, Obj>).map(
      ([type, c]) => `<code>${esc(type)}</code> ${typeOf(c.schema)}`,
    );
    return `<tr><td>${esc(status)}</td><td>${prose(r.description)}</td><td>${types.join('<br>')}</td></tr>`;
  });
  const open = Array.isArray(op.security) && op.security.length === 0;
  return [
    `<section class="op" id="${esc(id)}">`,
    `<h3><span class="method ${esc(method)}">${esc(method.toUpperCase())}</span> <code>${esc(path)}</code></h3>`,
    `<p class="summary">${prose(op.summary)} <span class="opid">operationId <code>${esc(id)}</code>${open ? ' · no token' : ''}</span></p>`,
    op.description ? `<p>${prose(op.description)}</p>` : '',
    params.length ? `<h4>Parameters</h4><table><tbody>${params.join('')}</tbody></table>` : '',
    bodySchema
      ? `<h4>Body${body?.required === true ? '' : ' (optional)'}</h4>${bodySchema.$ref ? `<p>${typeOf(bodySchema)}</p>` : properties(bodySchema) || `<p>${typeOf(bodySchema)}</p>`}`
      : '',
    `<h4>Answers</h4><table><tbody>${responses.join('')}</tbody></table>`,
    '</section>',
  ].join('');
}

/** The page: the document's operations grouped by tag, then its schemas. */
export function renderReference(doc: Doc): string {
  const info = doc.info as Obj;
  const tags = (doc.tags ?? []) as { name: string; description?: string }[];
  const ops = Object.entries(doc.paths as Record<string, Record<string, Obj>>).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, op]) => ({ path, method, op })),
  );
  const groups = tags.map((tag) => {
    const mine = ops.filter((o) => (o.op.tags as string[] | undefined)?.[0] === tag.name);
    return `<section id="tag-${esc(tag.name)}"><h2>${esc(tag.name)}</h2><p>${prose(tag.description)}</p>${mine.map((o) => operation(o.method, o.path, o.op)).join('')}</section>`;
  });
  const schemas = Object.entries(((doc.components as Obj).schemas ?? {}) as Record<string, Obj>).map(
    ([name, s]) =>
      `<section class="schema" id="schema-${esc(name)}"><h3>${esc(name)}</h3><p>${prose(s.description)}</p>${properties(s) || `<p>${typeOf(s)}</p>`}</section>`,
  );
  const nav = tags.map(
    (t) =>
      `<li><a href="#tag-${esc(t.name)}">${esc(t.name)}</a><ul>${ops
        .filter((o) => (o.op.tags as string[] | undefined)?.[0] === t.name)
        .map((o) => `<li><a href="#${esc(String(o.op.operationId))}">${esc(String(o.op.operationId))}</a></li>`)
        .join('')}</ul></li>`,
  );
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(String(info.title))} — reference</title><link rel="stylesheet" href="/screens/reference.css"></head><body>`,
    `<nav><p><a href="/v1/openapi.json">openapi.json</a></p><ul>${nav.join('')}<li><a href="#schemas">schemas</a></li></ul></nav>`,
    `<main><h1>${esc(String(info.title))}</h1><p>${prose(info.description)}</p><p>OpenAPI ${esc(String(doc.openapi))}, version ${esc(String(info.version))}. Every route but this page and the document needs <code>Authorization: Bearer &lt;token&gt;</code>.</p>`,
    groups.join(''),
    `<section id="schemas"><h2>schemas</h2>${schemas.join('')}</section></main></body></html>`,
  ].join('');
}
