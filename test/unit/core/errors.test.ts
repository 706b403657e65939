import { describe, expect, it } from 'vitest';
import { ERROR_CODES, OmniposError, exitCodeOf, httpStatusOf, isOmniposError } from '../../../src/core/errors/index.js';

describe('errors', () => {
  it('maps codes to HTTP statuses and exit codes from the one catalogue', () => {
    const e = new OmniposError('CONFIG_INVALID', 'x', { path: 'a.b' });
    expect(e.httpStatus).toBe(ERROR_CODES.CONFIG_INVALID.http);
    expect(exitCodeOf(e)).toBe(2);
    expect(httpStatusOf(new OmniposError('INVALID_ARGUMENT', 'y'))).toBe(400);
    expect(exitCodeOf(new Error('plain'))).toBe(1);
    expect(httpStatusOf('thrown string')).toBe(500);
    expect(isOmniposError(e, 'CONFIG_INVALID')).toBe(true);
    expect(isOmniposError(e, 'INTERNAL')).toBe(false);
    expect(JSON.parse(JSON.stringify(e))).toEqual({ code: 'CONFIG_INVALID', message: 'x', context: { path: 'a.b' } });
  });

  it('gives every code an HTTP status and an exit code in range', () => {
    for (const [code, v] of Object.entries(ERROR_CODES)) {
      expect(code).toMatch(/^[A-Z][A-Z0-9_]+$/);
      expect(v.http).toBeGreaterThanOrEqual(400);
      expect(v.http).toBeLessThan(600);
      expect([1, 2, 3, 4]).toContain(v.exit);
    }
  });
});
