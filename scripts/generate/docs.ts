/** Sections of the guides made from code: each between its markers, the prose around them hand-written. */
import { openApiDocument } from '../../src/api/openapi.js';
import { OPERATIONS } from '../../src/api/operations.js';
import { RULEBOOK_BEGIN, RULEBOOK_END, renderRulebook } from '../../src/engine/rules/index.js';
import { replaceSection, type Generated } from './generated.js';

const ERRORS_BEGIN =
  '<!-- error codes per operation: from the OpenAPI document (scripts/generate/docs.ts; npm run generate) -->';
const ERRORS_END = '<!-- /error codes per operation -->';

type Response = {
  content?: Record<string, { schema?: { properties?: { error?: { properties?: { code?: { enum?: string[] } } } } } }>;
};
type Op = { operationId: string; responses: Record<string, Response> };

/** docs/integration.md's table of error codes per operation and status, as the OpenAPI document declares them. */
export function errorTable(): string {
  const doc = openApiDocument(OPERATIONS) as { paths: Record<string, Record<string, Op>> };
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
  return `${ERRORS_BEGIN}\n${rows.join('\n')}\n${ERRORS_END}`;
}

export const DOCS: Generated[] = [
  {
    file: 'docs/integration.md',
    from: 'src/api/openapi.ts (its error table)',
    render: (current) => replaceSection('docs/integration.md', current, ERRORS_BEGIN, ERRORS_END, errorTable()),
  },
  {
    file: 'docs/decisions.md',
    from: 'src/engine/rules/book.ts (the rulebook table)',
    render: (current) => replaceSection('docs/decisions.md', current, RULEBOOK_BEGIN, RULEBOOK_END, renderRulebook()),
  },
];
