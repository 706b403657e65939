import { isAns } from '../ans.js';
import { qrError, type MpmObject } from '../mpm.js';
import type { FieldRule } from './layouts.js';

const UNIT = { N: 'digits', H: 'hex digits', ANS: 'characters' } as const;

function shown(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
}

function sizeText(rule: FieldRule, max = rule.max): string {
  if (rule.min === max) return `${max}`;
  return rule.min <= 1 ? `up to ${max}` : `${rule.min} to ${max}`;
}

function typeOk(type: FieldRule['type'], value: string): boolean {
  if (type === 'N') return /^[0-9]*$/.test(value);
  if (type === 'H') return /^[0-9A-Fa-f]*$/.test(value);
  return isAns(value);
}

/** Checks one value against its rule: type, size, fixed values. `name` is the object id path. */
export function checkValue(name: string, rule: FieldRule, value: string, max = rule.max): void {
  const size = value.length >= rule.min && value.length <= max;
  if (!typeOk(rule.type, value)) {
    const what = rule.type === 'ANS' ? 'characters of the ANS set (20h to 7Eh)' : UNIT[rule.type];
    throw qrError(name, `expected ${sizeText(rule, max)} ${what}, found ${shown(value)}`, {
      found: value,
      rule: rule.name,
    });
  }
  if (!size) {
    throw qrError(name, `expected ${sizeText(rule, max)} ${UNIT[rule.type]}, found ${value.length}`, {
      found: value,
      rule: rule.name,
    });
  }
  if (rule.fixed && !rule.fixed.includes(value)) {
    const want =
      rule.fixed.length === 1
        ? JSON.stringify(rule.fixed[0])
        : `one of ${rule.fixed.map((v) => JSON.stringify(v)).join(', ')}`;
    throw qrError(name, `expected ${want}, found ${shown(value)}`, { found: value, rule: rule.name });
  }
}

/** Extra room a container gets when its GUI may be the longer anonymised name (BR.COM.SCHEMEB). */
function slack(rule: FieldRule, children: readonly MpmObject[]): number {
  const gui = rule.children?.find((c) => c.id === '00');
  if (!gui?.fixed || gui.min === gui.max) return 0;
  const v = children.find((c) => c.id === '00')?.value ?? '';
  return Math.max(0, Math.min(v.length, gui.max) - gui.min);
}

/**
 * Walks a layout over parsed objects: every object must be in the layout, every required one
 * present, every value of the right type, size and fixed value. The first violation is thrown
 * as QR_INVALID naming the object (`26.01: expected 16 digits, found 15`).
 */
export function validateLayout(objects: readonly MpmObject[], rules: readonly FieldRule[], prefix = ''): void {
  for (const o of objects) {
    const rule = rules.find((r) => r.id === o.id);
    const name = prefix + o.id;
    if (!rule) throw qrError(name, 'is not part of this layout');
    if (rule.children) {
      const children = o.children ?? [];
      validateLayout(children, rule.children, `${name}.`);
      checkValue(name, { ...rule, type: 'ANS' }, o.value, rule.max + slack(rule, children));
    } else {
      checkValue(name, rule, o.value);
    }
  }
  for (const r of rules) {
    if (r.required && !objects.some((o) => o.id === r.id)) throw qrError(prefix + r.id, `missing (${r.name})`);
  }
}
