/**
 * Every committed file (or section of one) that is made from code, in one list: `npm run generate`
 * (scripts/generate/main.ts) writes them, test/unit/lint/generated.test.ts fails naming that command
 * when one is stale. A new generated file gets its entry here and nowhere else.
 */
import { ACQUIRER_KINDS } from './acquirer-kinds.js';
import { CONFIG } from './config.js';
import { DOCS } from './docs.js';
import type { Generated } from './generated.js';
import { LAYERS } from './layers.js';
import { OPENAPI } from './openapi.js';

export type { Generated } from './generated.js';

export const GENERATED: readonly Generated[] = [...ACQUIRER_KINDS, ...OPENAPI, ...CONFIG, ...DOCS, ...LAYERS];
