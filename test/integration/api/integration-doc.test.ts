import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../../src/api/openapi.js';

/**
 * docs/integration.md's table of error codes per operation is the OpenAPI document's (itself from the
 * one error catalogue): rendered here and compared. `OMNIPOS_WRITE_DOCS=1` writes it into the guide.
 */

const GUIDE = new URL('../../../docs/integration.md', import.meta.url);
const START =
  '<!-- error codes per operation: from the OpenAPI document (test/integration/api/integration-doc.test.ts) -->';
const END = '<!-- /error codes per operation -->';

type Response = {
  content?: Record<string, { schema?: { properties?: { error?: { properties?: { code?: { enum?: string[] } } } } } }>;
};
type Op = { operationId: string; responses: Record<string, Response> };

function table(): string {
  const doc = openApiDocument() as { paths: Record<string, Record<string, Op>> };
  const rows = ['| operation | status: codes |', '|---|---|'];
  for (const [path, ops] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(ops)) {
      const cells = Object.entries(op.responses)
        .filter(([status]) => Number(status) >= 400)
        .map(([status, r]) => {
          const codes = r.content?.['application/json']?.schema?.properties?.error?.properties?.code?.enum ?? [];
          return `${status}: ${codes.map((c) => `\`${c}\``).join(', ')}`;
        });
      rows.push(`| \`${op.operationId}\` ${method.toUpperCase()} \`${path}\` | ${cells.join('<br>') || '—'} |`);
    }
  return `${START}\n${rows.join('\n')}\n${END}`;
}

describe('docs/integration.md', () => {
  it('lists the error codes of every operation per status, as the document declares them', () => {
    let guide = readFileSync(GUIDE, 'utf8');
    const at = guide.indexOf(START);
    const end = guide.indexOf(END);
    if (process.env.OMNIPOS_WRITE_DOCS === '1' && at >= 0 && end > at) {
      guide = guide.slice(0, at) + table() + guide.slice(end + END.length);
      writeFileSync(GUIDE, guide);
    }
    expect(guide).toContain(table());
  });
});
