import type { XmlElement } from '../../core/index.js';
import { MESSAGES, VERSIONS, type FieldRule } from './fields.js';

/** The namespace of the schema (xsd:2); the manual's requests carry none (ws15:287), its answers this one (ws15:429). */
export const WS15_NAMESPACE = 'http://ecommerce.cbmp.com.br';

/** Why a message breaks its table: the element's path and the rule, for the `erro` 1 message. */
export type Verdict = { ok: true } | { ok: false; path: string; why: string };

const fail = (path: string, why: string): Verdict => ({ ok: false, path, why });

function checkChildren(e: XmlElement, rules: readonly FieldRule[], path: string): Verdict {
  let next = 0;
  for (const c of e.children) {
    const at = rules.findIndex((r) => r.name === c.name);
    if (at < 0) return fail(`${path}/${c.name}`, 'not an element of this message');
    if (at < next) return fail(`${path}/${c.name}`, 'out of the schema sequence, or repeated');
    for (let i = next; i < at; i++) {
      const skipped = rules[i] as FieldRule;
      if (skipped.required) return fail(`${path}/${skipped.name}`, `required (${skipped.source})`);
    }
    const v = checkField(c, rules[at] as FieldRule, `${path}/${c.name}`);
    if (!v.ok) return v;
    next = at + 1;
  }
  for (let i = next; i < rules.length; i++) {
    const r = rules[i] as FieldRule;
    if (r.required) return fail(`${path}/${r.name}`, `required (${r.source})`);
  }
  if (e.text.trim() !== '') return fail(path, 'text where only elements belong');
  return { ok: true };
}

function checkField(e: XmlElement, rule: FieldRule, path: string): Verdict {
  if (rule.children) return checkChildren(e, rule.children, path);
  if (e.children.length > 0) return fail(path, 'elements inside a text field');
  const value = e.text.trim();
  if (rule.pattern && !rule.pattern.test(value))
    return fail(
      path,
      `value '${value.length > 40 ? `${value.slice(0, 40)}…` : value}' out of its domain (${rule.source})`,
    );
  return { ok: true };
}

/** A message root against its table: the attributes `id` and `versao` (xsd:306-326), then every element. */
export function validateMessage(root: XmlElement): Verdict {
  const rules = MESSAGES[root.name];
  if (!rules) return fail(root.name, 'not a request of the webservice 1.5 (xsd:405-417, 894)');
  const { id, versao, xmlns, ...others } = root.attributes;
  if (id === undefined) return fail(`${root.name}/@id`, 'required (xsd:309)');
  if (versao === undefined || !VERSIONS.has(versao))
    return fail(`${root.name}/@versao`, 'not a version of the schema (xsd:311-324)');
  if (xmlns !== undefined && xmlns !== WS15_NAMESPACE) return fail(`${root.name}/@xmlns`, `not ${WS15_NAMESPACE}`);
  const extra = Object.keys(others)[0];
  if (extra !== undefined) return fail(`${root.name}/@${extra}`, 'not an attribute of the message');
  return checkChildren(root, rules, root.name);
}
