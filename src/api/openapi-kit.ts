/** The small pieces the API's OpenAPI document is written with (src/api/openapi.ts). */

export type Schema = Record<string, unknown>;

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
export const json = (schema: Schema, description: string): Schema => ({
  description,
  content: { 'application/json': { schema } },
});
export const error = (description: string): Schema => json(ref('Error'), description);

export const str = { type: 'string' };
export const int = { type: 'integer' };
export const time = { type: 'string', format: 'date-time' };
export const nullable = (s: Schema): Schema => ({ anyOf: [s, { type: 'null' }] });
/** The `{id}` of a route on one row of the terminal's store (a payment, a void, a saved card): digits, at most 12. */
export const rowIdParameter = (description: string): Schema => ({
  name: 'id',
  in: 'path',
  required: true,
  description,
  schema: { type: 'string', pattern: '^[0-9]{1,12}$' },
});

/** The 401 of every operation behind the token. */
export const UNAUTHORIZED = error('A missing or wrong bearer token.');
