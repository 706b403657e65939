import { describe, expect, it } from 'vitest';
import { xml, type XmlElement } from '../../../../src/core/index.js';
import { MESSAGES, type FieldRule } from '../../../../src/sandbox/webservice15/fields.js';
import { validateMessage } from '../../../../src/sandbox/webservice15/validate.js';

/**
 * Every row of the host model's message tables (fields.ts, from the manual's tables and the
 * schema) bites: for each message, a message with every element passes; each element missing
 * (when required), out of its domain, out of order or unknown is refused with its path.
 */

const VALID = ['1', '201805', '123', '986', 'visa', 'PT', 'true', '2026-03-02T12:00:00', '10069930690000001001'];
const INVALID = ['', 'x', '1'.repeat(41), 'é'.repeat(1025)];

const pick = (rule: FieldRule, from: string[]): string => {
  const want = from === VALID;
  const v = from.find((c) => (rule.pattern as RegExp).test(c) === want);
  if (v === undefined) throw new Error(`no ${want ? 'valid' : 'invalid'} value for ${rule.name}`);
  return v;
};

function full(rules: readonly FieldRule[]): XmlElement[] {
  return rules.map((r) => (r.children ? xml(r.name, full(r.children)) : xml(r.name, pick(r, VALID))));
}

const message = (root: string, children: XmlElement[]): XmlElement => xml(root, children, { id: '1', versao: '1.2.1' });

/** Every text rule with its path, and a function that rebuilds the message with that element changed. */
function leaves(rules: readonly FieldRule[], path: string[] = []): { path: string[]; rule: FieldRule }[] {
  return rules.flatMap((r) =>
    r.children ? leaves(r.children, [...path, r.name]) : [{ path: [...path, r.name], rule: r }],
  );
}

function edit(children: XmlElement[], path: string[], change: (e: XmlElement) => XmlElement | undefined): XmlElement[] {
  const [head, ...rest] = path;
  return children.flatMap((c) => {
    if (c.name !== head) return [c];
    const next = rest.length === 0 ? change(c) : { ...c, children: edit([...c.children], rest, change) };
    return next ? [next] : [];
  });
}

const cases = Object.entries(MESSAGES).flatMap(([root, rules]) =>
  leaves(rules)
    .filter(({ rule }) => INVALID.some((v) => !(rule.pattern as RegExp).test(v)))
    .map(({ path, rule }) => [root, path.join('/'), path, rule] as const),
);

describe('the message tables', () => {
  it.each(Object.entries(MESSAGES))('%s with every element passes', (root, rules) => {
    expect(validateMessage(message(root, full(rules)))).toEqual({ ok: true });
  });

  it.each(cases)('%s: %s out of its domain is refused', (root, _p, path, rule) => {
    const bad = edit(full(MESSAGES[root] as FieldRule[]), path, (e) => ({ ...e, text: pick(rule, INVALID) }));
    expect(validateMessage(message(root, bad))).toMatchObject({ ok: false, path: `${root}/${path.join('/')}` });
  });

  it.each(cases.filter(([, , , r]) => r.required))('%s: %s missing is refused', (root, _p, path) => {
    const bad = edit(full(MESSAGES[root] as FieldRule[]), path, () => undefined);
    expect(validateMessage(message(root, bad))).toMatchObject({ ok: false, path: `${root}/${path.join('/')}` });
  });

  it('refuses an unknown element, the schema sequence out of order, a repeated element', () => {
    const rules = MESSAGES['requisicao-consulta'] as FieldRule[];
    const [tid, ec] = full(rules) as [XmlElement, XmlElement];
    expect(validateMessage(message('requisicao-consulta', [tid, ec, xml('extra', '1')]))).toMatchObject({ ok: false });
    expect(validateMessage(message('requisicao-consulta', [ec, tid]))).toMatchObject({ ok: false });
    expect(validateMessage(message('requisicao-consulta', [tid, tid, ec]))).toMatchObject({ ok: false });
  });

  it('refuses a message without id, with a version outside the schema, or an unknown root (xsd:306-326)', () => {
    const children = full(MESSAGES['requisicao-consulta'] as FieldRule[]);
    expect(validateMessage(xml('requisicao-consulta', children, { versao: '1.2.1' }))).toMatchObject({ ok: false });
    expect(validateMessage(xml('requisicao-consulta', children, { id: '1', versao: '2.0.0' }))).toMatchObject({
      ok: false,
    });
    expect(validateMessage(message('requisicao-outra', children))).toMatchObject({ ok: false });
  });
});
