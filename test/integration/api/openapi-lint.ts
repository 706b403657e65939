/**
 * The rules of Redocly CLI's `recommended` ruleset (packages/core/src/config/recommended.ts,
 * oas3_1Rules) that can be told from the document alone, written again here so the suite checks
 * them while `@redocly/cli` is not a devDependency: each problem as `rule: where: what`. The real
 * linter, when installed, is run by openapi-lint.test.ts as well; this is not a substitute for its
 * `struct` rule (the document against the OpenAPI 3.1 schema).
 */

type Obj = Record<string, unknown>;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

/** Redocly's operation-operationId-url-safe character set. */
const URL_SAFE = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]*$/;

/** Every schema object in the document, with where it is (properties, items, anyOf… walked). */
function schemas(doc: Obj): { at: string; s: Obj }[] {
  const out: { at: string; s: Obj }[] = [];
  const walkSchema = (s: unknown, at: string): void => {
    if (!isObj(s)) return;
    out.push({ at, s });
    if (isObj(s.properties)) for (const [k, v] of Object.entries(s.properties)) walkSchema(v, `${at}.properties.${k}`);
    if (isObj(s.additionalProperties)) walkSchema(s.additionalProperties, `${at}.additionalProperties`);
    if (s.items !== undefined) walkSchema(s.items, `${at}.items`);
    if (s.contentSchema !== undefined) walkSchema(s.contentSchema, `${at}.contentSchema`);
    for (const k of ['anyOf', 'oneOf', 'allOf'])
      if (Array.isArray(s[k])) (s[k] as unknown[]).forEach((x, i) => walkSchema(x, `${at}.${k}[${i}]`));
  };
  const walk = (v: unknown, at: string): void => {
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${at}[${i}]`));
    else if (isObj(v)) {
      for (const [k, x] of Object.entries(v)) {
        if (k === 'schema' || k === 'contentSchema') walkSchema(x, `${at}.${k}`);
        else if (!k.startsWith('x-')) walk(x, `${at}.${k}`);
      }
    }
  };
  walk(doc.paths, 'paths');
  for (const [name, s] of Object.entries(((doc.components as Obj | undefined)?.schemas ?? {}) as Obj))
    walkSchema(s, `#/components/schemas/${name}`);
  return out;
}

/** The `$ref`s the linter follows: everywhere but inside `x-` extensions, which it does not walk as schemas. */
function refs(v: unknown, out: string[] = []): string[] {
  if (Array.isArray(v)) v.forEach((x) => refs(x, out));
  else if (isObj(v)) {
    for (const [k, x] of Object.entries(v)) {
      if (k === '$ref' && typeof x === 'string') out.push(x);
      else if (!k.startsWith('x-')) refs(x, out);
    }
  }
  return out;
}

function hasProperty(s: Obj, name: string, doc: Obj): boolean {
  if (typeof s.$ref === 'string') {
    const target = (((doc.components as Obj).schemas ?? {}) as Obj)[s.$ref.replace('#/components/schemas/', '')];
    return isObj(target) && hasProperty(target, name, doc);
  }
  if (isObj(s.properties) && name in s.properties) return true;
  return ['allOf', 'anyOf', 'oneOf'].some(
    (k) => Array.isArray(s[k]) && (s[k] as Obj[]).some((x) => hasProperty(x, name, doc)),
  );
}

const typeMatches = (type: string, v: unknown): boolean =>
  type === 'null'
    ? v === null
    : type === 'integer'
      ? Number.isInteger(v)
      : type === 'array'
        ? Array.isArray(v)
        : type === 'object'
          ? isObj(v)
          : typeof v === type;

function ambiguous(a: string, b: string): boolean {
  const pa = a.split('/');
  const pb = b.split('/');
  if (pa.length !== pb.length) return false;
  let va = 0;
  let vb = 0;
  for (let i = 0; i < pa.length; i++) {
    const xa = /^{.+?}$/.test(pa[i] as string);
    const xb = /^{.+?}$/.test(pb[i] as string);
    if (xa) va++;
    if (xb) vb++;
    if (!xa && !xb && pa[i] !== pb[i]) return false;
  }
  return va === vb;
}

export function lintDocument(doc: Obj): string[] {
  const problems: string[] = [];
  const report = (rule: string, at: string, what: string): void => void problems.push(`${rule}: ${at}: ${what}`);
  const info = (doc.info ?? {}) as Obj;
  const license = info.license as Obj | undefined;
  if (!isObj(license)) report('info-license', 'info', 'no license');
  else if (!license.url && !license.identifier)
    report('info-license-strict', 'info.license', 'neither url nor identifier');

  const servers = doc.servers as Obj[] | undefined;
  if (!Array.isArray(servers) || servers.length === 0) report('no-empty-servers', 'servers', 'none');
  for (const s of servers ?? []) {
    const url = String(s.url);
    if (url.endsWith('/')) report('no-server-trailing-slash', url, 'trailing slash');
    if (/example\.com/.test(url)) report('no-server-example.com', url, 'example.com');
  }

  const tags = (doc.tags ?? []) as Obj[];
  const tagNames = tags.map((t) => String(t.name));
  if (new Set(tagNames).size !== tagNames.length) report('no-duplicated-tag-names', 'tags', 'a name twice');
  for (const t of tags)
    if (typeof t.description !== 'string' || t.description.trim() === '')
      report('tag-description', `tags.${String(t.name)}`, 'no description');

  const schemes = Object.keys((doc.components as Obj | undefined)?.securitySchemes ?? {});
  const usedSchemes = new Set<string>();
  const checkSecurity = (sec: unknown, at: string): void => {
    for (const req of (sec ?? []) as Obj[]) {
      for (const name of Object.keys(req)) {
        usedSchemes.add(name);
        if (!schemes.includes(name)) report('security-defined', at, `no security scheme ${name}`);
      }
    }
  };
  checkSecurity(doc.security, 'security');

  const ids = new Map<string, string>();
  const paths = (doc.paths ?? {}) as Record<string, Obj>;
  const seenPaths: string[] = [];
  for (const [path, item] of Object.entries(paths)) {
    if (path.length > 1 && path.endsWith('/')) report('no-path-trailing-slash', path, 'trailing slash');
    if (path.includes('?')) report('path-not-include-query', path, 'a query in the path');
    const other = seenPaths.find((p) => ambiguous(p, path));
    if (other) report('no-ambiguous-paths', path, `ambiguous with ${other}`);
    seenPaths.push(path);
    const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
    for (const method of Object.keys(item).filter((m) => METHODS.includes(m))) {
      const op = item[method] as Obj;
      const at = `${method.toUpperCase()} ${path}`;
      if (typeof op.summary !== 'string' || op.summary.trim() === '') report('operation-summary', at, 'no summary');
      const id = op.operationId;
      if (typeof id !== 'string' || id === '') report('operation-operationId', at, 'no operationId');
      else {
        if (ids.has(id)) report('operation-operationId-unique', at, `${id} also names ${ids.get(id)}`);
        ids.set(id, at);
        if (!URL_SAFE.test(id)) report('operation-operationId-url-safe', at, id);
      }
      const codes = Object.keys(op.responses ?? {});
      if (!codes.some((c) => /^2(\d\d|XX)$/.test(c))) report('operation-2xx-response', at, 'no 2xx answer');
      if (!codes.some((c) => /^4(\d\d|XX)$/.test(c))) report('operation-4xx-response', at, 'no 4xx answer');
      const params = (op.parameters ?? []) as Obj[];
      const keys = params.map((p) => `${String(p.in)}:${String(p.name)}`);
      if (new Set(keys).size !== keys.length) report('operation-parameters-unique', at, 'a parameter twice');
      const inPath = params.filter((p) => p.in === 'path').map((p) => String(p.name));
      for (const name of templated)
        if (!inPath.includes(name)) report('path-parameters-defined', at, `{${name}} not declared`);
      for (const name of inPath)
        if (!templated.includes(name)) report('path-parameters-defined', at, `${name} not in the path`);
      if (op.security !== undefined) checkSecurity(op.security, at);
    }
  }

  for (const { at, s } of schemas(doc)) {
    const types = s.type === undefined ? [] : Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
    if (Array.isArray(s.enum)) {
      if (new Set(s.enum.map((v) => JSON.stringify(v))).size !== s.enum.length)
        report('no-duplicated-enum-values', at, 'a value twice');
      if (types.length)
        for (const v of s.enum)
          if (!types.some((t) => typeMatches(t, v)))
            report('no-enum-type-mismatch', at, `${JSON.stringify(v)} is not ${types.join('|')}`);
    }
    if (s.type === 'object' && s.items !== undefined) report('no-schema-type-mismatch', at, 'object with items');
    if (s.type === 'array' && s.properties !== undefined)
      report('no-schema-type-mismatch', at, 'array with properties');
    if (
      (s.minimum !== undefined && s.exclusiveMinimum !== undefined) ||
      (s.maximum !== undefined && s.exclusiveMaximum !== undefined)
    )
      report('no-mixed-number-range-constraints', at, 'inclusive and exclusive bounds');
    if (Array.isArray(s.required))
      for (const name of s.required as string[])
        if (!hasProperty(s, name, doc))
          report('no-required-schema-properties-undefined', at, `required ${name} is not defined`);
  }

  const used = new Set(refs({ ...doc, components: { ...(doc.components as Obj), schemas: undefined } }));
  // A component used only by another component counts once that one is used (the linter counts any $ref).
  for (const [name, s] of Object.entries(((doc.components as Obj | undefined)?.schemas ?? {}) as Obj))
    for (const r of refs(s)) if (r !== `#/components/schemas/${name}`) used.add(r);
  for (const name of Object.keys((doc.components as Obj | undefined)?.schemas ?? {}))
    if (!used.has(`#/components/schemas/${name}`))
      report('no-unused-components', `#/components/schemas/${name}`, 'never used');
  for (const r of refs(doc)) {
    const target = (((doc.components as Obj | undefined)?.schemas ?? {}) as Obj)[
      r.replace('#/components/schemas/', '')
    ];
    if (!r.startsWith('#/components/schemas/') || target === undefined)
      report('no-unresolved-refs', r, 'does not resolve');
  }
  for (const name of schemes)
    if (!usedSchemes.has(name)) report('no-unused-components', `#/components/securitySchemes/${name}`, 'never used');
  const walkText = (v: unknown, at: string): void => {
    if (typeof v === 'string') {
      if (/<script|javascript:/i.test(v)) report('no-unsafe-markdown', at, 'script in prose');
    } else if (Array.isArray(v)) v.forEach((x, i) => walkText(x, `${at}[${i}]`));
    else if (isObj(v))
      for (const [k, x] of Object.entries(v))
        if (k === 'description' || k === 'summary' || isObj(x) || Array.isArray(x)) walkText(x, `${at}.${k}`);
  };
  walkText(doc, '#');
  return problems;
}
