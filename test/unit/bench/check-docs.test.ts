import { describe, expect, it } from 'vitest';
import { BEGIN, END, withDocsTable } from '../../bench/check-docs.js';

describe("bench:check --docs: the performance table between docs/operations.md's markers", () => {
  const doc = `# Operations\n\nbefore\n${BEGIN}\n\n| old |\n\nold conditions.\n\n${END}\nafter\n`;

  it('replaces only what lies between the markers, and writing twice gives the same document', () => {
    const once = withDocsTable(doc, '| new |', 'today');
    expect(once).toBe(`# Operations\n\nbefore\n${BEGIN}\n\n| new |\n\ntoday.\n\n${END}\nafter\n`);
    expect(withDocsTable(once, '| new |', 'today')).toBe(once);
  });

  it('refuses a document without both markers in order', () => {
    expect(() => withDocsTable('# no markers', '| t |', 'c')).toThrow(/lacks/);
    expect(() => withDocsTable(`${END}\n${BEGIN}`, '| t |', 'c')).toThrow(/lacks/);
  });
});
