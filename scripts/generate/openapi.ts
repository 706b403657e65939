/**
 * The API's documents from their source: `src/api/openapi.json` (src/api/openapi.ts) and
 * `src/api/events.openapi.json`, the event stream's own (src/api/openapi-stream.ts). Tests keep both
 * equal to what the daemon serves.
 */
import { openApiDocument } from '../../src/api/openapi.js';
import { OPERATIONS } from '../../src/api/operations.js';
import { eventStreamDocument } from '../../src/api/openapi-stream.js';
import { json, type Generated } from './generated.js';

export const OPENAPI: Generated[] = [
  { file: 'src/api/openapi.json', from: 'src/api/openapi.ts', render: () => json(openApiDocument(OPERATIONS)) },
  {
    file: 'src/api/events.openapi.json',
    from: 'src/api/openapi-stream.ts',
    render: () => json(eventStreamDocument()),
  },
];
