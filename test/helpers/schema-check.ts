/**
 * A small JSON Schema checker for the subset the API's OpenAPI document uses (type, enum, pattern,
 * minimum, maximum, properties, required, additionalProperties: false, items, anyOf, $ref to components): enough
 * to hold real responses to the document. Returns the paths at fault, empty when it conforms.
 */
export function check(
  schema: Record<string, unknown>,
  value: unknown,
  root: Record<string, unknown>,
  at = '$',
): string[] {
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.replace('#/components/schemas/', '');
    const target = ((root.components as Record<string, unknown>).schemas as Record<string, Record<string, unknown>>)[
      name
    ];
    if (!target) return [`${at}: unknown $ref ${schema.$ref}`];
    return check(target, value, root, at);
  }
  if (Array.isArray(schema.anyOf)) {
    const ok = (schema.anyOf as Record<string, unknown>[]).some((s) => check(s, value, root, at).length === 0);
    return ok ? [] : [`${at}: matches none of anyOf`];
  }
  const errors: string[] = [];
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
    const actual = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
    const fits = types.some(
      (t) =>
        t === actual || (t === 'integer' && Number.isInteger(value)) || (t === 'number' && typeof value === 'number'),
    );
    if (!fits) return [`${at}: ${JSON.stringify(value)} is not ${types.join('|')}`];
  }
  if (typeof schema.pattern === 'string' && typeof value === 'string' && !new RegExp(schema.pattern, 'u').test(value))
    errors.push(`${at}: ${JSON.stringify(value)} does not match ${schema.pattern}`);
  if (typeof schema.minimum === 'number' && typeof value === 'number' && value < schema.minimum)
    errors.push(`${at}: ${value} < ${schema.minimum}`);
  if (typeof schema.maximum === 'number' && typeof value === 'number' && value > schema.maximum)
    errors.push(`${at}: ${value} > ${schema.maximum}`);
  if (Array.isArray(schema.enum) && !schema.enum.includes(value))
    errors.push(`${at}: ${JSON.stringify(value)} not in ${JSON.stringify(schema.enum)}`);
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>;
    const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
    for (const r of (schema.required ?? []) as string[]) if (!(r in obj)) errors.push(`${at}.${r}: required`);
    for (const [k, v] of Object.entries(obj)) {
      if (props[k]) errors.push(...check(props[k], v, root, `${at}.${k}`));
      else if (schema.additionalProperties === false) errors.push(`${at}.${k}: not in the schema`);
    }
  }
  if (Array.isArray(value) && schema.items)
    value.forEach((v, i) => errors.push(...check(schema.items as Record<string, unknown>, v, root, `${at}[${i}]`)));
  return errors;
}
