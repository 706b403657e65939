/**
 * The configuration's generated files, both from src/config/schema.ts: its JSON Schema
 * (config/omnipos.schema.json, for editors; `omnipos config schema` prints the same) and its zod-free
 * shape (src/config/config-shape.generated.ts, read by `omnipos api token` without loading zod).
 */
import { format, resolveConfig } from 'prettier';
import { configJsonSchema } from '../../src/config/index.js';
import { ConfigSchema } from '../../src/config/schema.js';
import { renderShapeModule, shapeOf } from '../../src/config/shape-of.js';
import { json, type Generated } from './generated.js';

const SHAPE = 'src/config/config-shape.generated.ts';

export const CONFIG: Generated[] = [
  { file: 'config/omnipos.schema.json', from: 'src/config/schema.ts', render: () => json(configJsonSchema()) },
  {
    file: SHAPE,
    from: 'src/config/schema.ts (src/config/shape-of.ts)',
    render: async () =>
      format(renderShapeModule(shapeOf(ConfigSchema)), { ...(await resolveConfig(SHAPE)), filepath: SHAPE }),
  },
];
