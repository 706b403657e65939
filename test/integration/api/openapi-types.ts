/**
 * TypeScript types from the OpenAPI document, in the shape openapi-typescript 7 writes them
 * (`paths`, `components`, `operations`, `$defs`), for the test that type-checks the integration guide's
 * client against the document. When `openapi-typescript` is a devDependency the test uses it
 * instead; this generator only stands in until then and covers what the document uses
 * ($ref, type and type arrays, enum, const, anyOf/oneOf, properties/required, additionalProperties).
 */

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const key = (k: string): string => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(k) ? k : JSON.stringify(k));

function schemaType(s: unknown): string {
  if (s === true || s === undefined) return 'unknown';
  if (!isObj(s)) return 'never';
  if (typeof s.$ref === 'string') {
    const [, , section, name] = s.$ref.split('/');
    return `components[${JSON.stringify(section)}][${JSON.stringify(name)}]`;
  }
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (Array.isArray(s.anyOf)) return s.anyOf.map((x) => `(${schemaType(x)})`).join(' | ');
  if (Array.isArray(s.oneOf)) return s.oneOf.map((x) => `(${schemaType(x)})`).join(' | ');
  const types = Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : [];
  if (types.length === 0) return isObj(s.properties) ? objectType(s) : 'unknown';
  return types
    .map((t) => {
      switch (t) {
        case 'string':
          return 'string';
        case 'integer':
        case 'number':
          return 'number';
        case 'boolean':
          return 'boolean';
        case 'null':
          return 'null';
        case 'array':
          return `(${schemaType(s.items)})[]`;
        case 'object':
          return objectType(s);
        default:
          return 'unknown';
      }
    })
    .join(' | ');
}

function objectType(s: Obj): string {
  const required = new Set((s.required ?? []) as string[]);
  const fields = Object.entries((s.properties ?? {}) as Obj).map(
    ([k, v]) => `${key(k)}${required.has(k) ? '' : '?'}: ${schemaType(v)};`,
  );
  const extra = s.additionalProperties;
  if (extra === true || isObj(extra)) fields.push(`[key: string]: ${extra === true ? 'unknown' : schemaType(extra)};`);
  if (fields.length === 0) return 'Record<string, never>';
  return `{ ${fields.join(' ')} }`;
}

const content = (c: unknown): string =>
  isObj(c)
    ? `{ ${Object.entries(c)
        .map(([type, m]) => `${JSON.stringify(type)}: ${schemaType((m as Obj).schema)};`)
        .join(' ')} }`
    : 'never';

function operationType(op: Obj): string {
  const params = (op.parameters ?? []) as Obj[];
  const group = (where: string): string => {
    const mine = params.filter((p) => p.in === where);
    if (mine.length === 0) return `${where}?: never;`;
    const optional = mine.every((p) => p.required !== true) ? '?' : '';
    return `${where}${optional}: { ${mine.map((p) => `${key(String(p.name))}${p.required === true ? '' : '?'}: ${schemaType(p.schema)};`).join(' ')} };`;
  };
  const body = op.requestBody as Obj | undefined;
  const responses = Object.entries((op.responses ?? {}) as Record<string, Obj>).map(
    ([status, r]) =>
      `${/^\d+$/.test(status) ? status : JSON.stringify(status)}: { headers: { [name: string]: unknown }; content${r.content ? '' : '?'}: ${r.content ? content(r.content) : 'never'}; };`,
  );
  return [
    `{ parameters: { ${['query', 'header', 'path', 'cookie'].map(group).join(' ')} };`,
    body
      ? `requestBody${body.required === true ? '' : '?'}: { content: ${content(body.content)} };`
      : 'requestBody?: never;',
    `responses: { ${responses.join(' ')} }; }`,
  ].join(' ');
}

/** The declaration file (`.d.ts`) for `doc`. */
export function typesFromDocument(doc: Obj): string {
  const ops: string[] = [];
  const paths = Object.entries(doc.paths as Record<string, Obj>).map(([path, item]) => {
    const methods = Object.entries(item).map(([method, op]) => {
      const id = (op as Obj).operationId;
      if (typeof id !== 'string') throw new Error(`${method} ${path}: no operationId`);
      ops.push(`${key(id)}: ${operationType(op as Obj)};`);
      return `${method}: operations[${JSON.stringify(id)}];`;
    });
    return `${JSON.stringify(path)}: { parameters: { query?: never; header?: never; path?: never; cookie?: never }; ${methods.join(' ')} };`;
  });
  const schemas = Object.entries(((doc.components as Obj).schemas ?? {}) as Obj).map(
    ([name, s]) => `${key(name)}: ${schemaType(s)};`,
  );
  return [
    '// Generated from the OpenAPI document (test/integration/api/openapi-types.ts).',
    `export interface paths { ${paths.join('\n')} }`,
    'export type webhooks = Record<string, never>;',
    `export interface components { schemas: { ${schemas.join('\n')} }; responses: never; parameters: never; requestBodies: never; headers: never; pathItems: never; }`,
    'export type $defs = Record<string, never>;',
    `export interface operations { ${ops.join('\n')} }`,
    '',
  ].join('\n');
}
