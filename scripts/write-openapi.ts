/**
 * Writes the API's documents from their source: `src/api/openapi.json` (src/api/openapi.ts) and
 * `src/api/events.openapi.json`, the event stream's own (src/api/openapi-stream.ts). Tests keep both
 * equal to what the daemon serves.
 */
import { writeFileSync } from 'node:fs';
import { openApiDocument } from '../src/api/openapi.js';
import { eventStreamDocument } from '../src/api/openapi-stream.js';

const write = (file: string, doc: unknown): void =>
  writeFileSync(new URL(`../src/api/${file}`, import.meta.url), `${JSON.stringify(doc, null, 2)}\n`);
write('openapi.json', openApiDocument());
write('events.openapi.json', eventStreamDocument());
