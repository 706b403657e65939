import { withErrorCodes } from './openapi-errors.js';
import type { Schema } from './openapi-kit.js';
import { isPublic, operationKey, type Operation, type SecurityRequirement } from './routes.js';
import { reachOf, SCREEN_SCOPES } from './scopes.js';

/** An operation as the document reads it: everything but its handler. */
export type OperationDoc = Omit<Operation<never>, 'handle'>;

/** The declaration's fields the document writes, in the order the declaration gives them. */
const TEXT = new Set(['summary', 'description', 'security', 'parameters', 'requestBody', 'responses']);

/**
 * The document's `paths` from the operations (src/api/operations.ts), in their order: each with its
 * `operationId` and tag, its text, the screens' schemes where a screen's token reaches it, and its
 * error answers from its `errors` and the error catalogue (src/api/openapi-errors.ts).
 */
export function pathsOf(operations: readonly OperationDoc[]): Record<string, Record<string, Schema>> {
  const paths: Record<string, Record<string, Schema>> = {};
  for (const o of operations) {
    const text = Object.fromEntries(Object.entries(o).filter(([k]) => TEXT.has(k)));
    const key = operationKey(o);
    const responses = withErrorCodes(key, o.responses, o.errors, !isPublic(o));
    const op = { operationId: o.operationId, tags: [o.tag], ...text, ...screenSecurity(o), responses };
    (paths[o.path] ??= {})[o.method.toLowerCase()] = op;
  }
  return paths;
}

/**
 * An operation a screen's token reaches (src/api/scopes.ts) lists the screens' schemes besides the
 * cash register's `bearer` (and `ticket` where it had it); the others keep `bearer` alone.
 */
function screenSecurity(o: OperationDoc): { security?: readonly SecurityRequirement[] } {
  const reaching = SCREEN_SCOPES.filter((s) => reachOf(o.screens, s) !== undefined);
  if (reaching.length === 0) return {};
  const [first, ...rest] = o.security ?? [{ bearer: [] }];
  return { security: [...(first ? [first] : []), ...reaching.map((s) => ({ [s]: [] })), ...rest] };
}
