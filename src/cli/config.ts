import { parseArgs } from 'node:util';
import { configJsonSchema, describeConfig, formatProblem, loadConfig, type ConfigProblem } from '../config/index.js';
import { isOmniposError } from '../core/index.js';
import { printJson, type Command } from './context.js';

export const configCheck: Command = {
  path: ['config', 'check'],
  summary: 'validate a configuration and print it with secrets masked',
  usage: `omnipos config check [--config PATH]

Prints the effective configuration (file, OMNIPOS_* overrides, defaults) with secrets masked and
exits 0; or prints one line per problem, each naming its key path, and exits 2.

Example:
  omnipos config check --config /etc/omnipos/omnipos.json`,
  run(args, ctx) {
    const { values } = parseArgs({ args, options: { config: { type: 'string' } }, strict: true });
    try {
      const config = loadConfig({ ...(values.config ? { path: values.config } : {}), env: ctx.env });
      printJson(ctx, describeConfig(config));
      return Promise.resolve(0);
    } catch (e) {
      if (isOmniposError(e) && Array.isArray(e.context.problems)) {
        ctx.err(`${String(e.context.source)}:\n`);
        for (const p of e.context.problems as ConfigProblem[]) ctx.err(`${formatProblem(p)}\n`);
        return Promise.resolve(2);
      }
      throw e;
    }
  },
};

export const configSchema: Command = {
  path: ['config', 'schema'],
  summary: 'print the JSON Schema of the configuration file',
  usage: `omnipos config schema

Prints the JSON Schema that config/omnipos.schema.json holds (editors use it to check a site's file).

Example:
  omnipos config schema > config/omnipos.schema.json`,
  run(_args, ctx) {
    printJson(ctx, configJsonSchema());
    return Promise.resolve(0);
  },
};
