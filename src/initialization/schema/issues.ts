import type { z } from 'zod';
import { OmniposError } from '../../core/index.js';

/** `Bins[812].FinalBin` from a zod path. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += out === '' ? String(p) : `.${String(p)}`;
  }
  return out || '(root)';
}

/** INIT_TABLE_INVALID naming the bad field, e.g. `Bins[812].FinalBin: lower than InitialBin`. */
export function tableError(path: string, message: string, extra: Record<string, unknown> = {}): OmniposError {
  return new OmniposError('INIT_TABLE_INVALID', `${path}: ${message}`, { path, ...extra });
}

/** The first zod issue as a table error; the first ten travel in the context. */
export function fromZod(error: z.ZodError): OmniposError {
  const issues = error.issues.slice(0, 10).map((i) => ({ path: formatPath(i.path), message: i.message }));
  const first = issues[0] ?? { path: '(root)', message: 'invalid' };
  const message =
    first.message === 'Invalid input: expected boolean, received undefined'
      ? 'missing (a Boolean flag is required)'
      : first.message;
  return tableError(first.path, message, { issues, count: error.issues.length });
}
