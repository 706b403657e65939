import {
  OmniposError,
  isIdentifierKey,
  isIdentifierValue,
  isOpaqueEmvField,
  isSensitiveKey,
  scrubText,
} from '../core/index.js';

/**
 * Refuses, before anything is written, a value holding sensitive authentication data or a PAN:
 * a sensitive key (track, CVV, PIN block, keys, tokens…) at any depth, or a PAN-shaped digit
 * run in any string. `where` names the column for the error.
 */
export function assertNoCardData(value: unknown, where: string, path = ''): void {
  if (typeof value === 'string') {
    if (scrubText(value) !== value) {
      throw new OmniposError('STORE_SENSITIVE_DATA', `${where}${path}: holds a card number`, { where, path });
    }
    return;
  }
  if (value === null || typeof value !== 'object') return;
  for (const [k, v] of Object.entries(value)) {
    const here = Array.isArray(value) ? `${path}[${k}]` : `${path}.${k}`;
    if (!Array.isArray(value) && isSensitiveKey(k) && v !== undefined && v !== null) {
      throw new OmniposError('STORE_SENSITIVE_DATA', `${where}${here}: sensitive data may not be stored`, {
        where,
        path: here,
      });
    }
    if (!Array.isArray(value) && ((isIdentifierKey(k) && isIdentifierValue(v)) || isOpaqueEmvField(k, v))) continue;
    assertNoCardData(v, where, here);
  }
}
