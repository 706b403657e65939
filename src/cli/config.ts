import { parseArgs } from 'node:util';
import { configJsonSchema, describeConfig, formatProblem, loadConfig, type ConfigProblem } from '../config/index.js';
import { isOmniposError } from '../core/index.js';
import { printJson, type Command } from './context.js';

export const configCheck: Command = {
  path: ['config', 'check'],
  summary: 'validate a configuration and print it with secrets masked',
  usage: `omnipos config check [--config PATH]

Prints the effective configuration (file, OMNIPOS_* overrides, defaults) with secrets masked and
exits 0; or prints one line per problem, each naming its key path, and exits 2. A BibComp pinpad
("kind": "bibcomp") has its library loaded, as the daemon loads it at start: a wrong path, a file
that is no library, or one without the PPCOMP.H functions the bridge calls is a problem here.

Example:
  omnipos config check --config /etc/omnipos/omnipos.json`,
  async run(args, ctx) {
    const { values } = parseArgs({ args, options: { config: { type: 'string' } }, strict: true });
    try {
      const config = loadConfig({ ...(values.config ? { path: values.config } : {}), env: ctx.env });
      const problem = await libraryProblem(config.values.pinpad.device);
      if (problem) {
        ctx.err(`${config.source}:\n${formatProblem(problem)}\n`);
        return 2;
      }
      printJson(ctx, describeConfig(config));
      return 0;
    } catch (e) {
      if (isOmniposError(e) && Array.isArray(e.context.problems)) {
        ctx.err(`${String(e.context.source)}:\n`);
        for (const p of e.context.problems as ConfigProblem[]) ctx.err(`${formatProblem(p)}\n`);
        return 2;
      }
      throw e;
    }
  },
};

/** The configured BibComp library, loaded as the daemon loads it (the devices' factory only for that kind). */
async function libraryProblem(device: { kind: string; library?: string }): Promise<ConfigProblem | undefined> {
  if (device.kind !== 'bibcomp' || device.library === undefined) return undefined;
  const { bibcompLibraryProblem } = await import('../adapters/index.js');
  const message = bibcompLibraryProblem(device.library);
  return message === undefined ? undefined : { path: 'pinpad.device.library', message };
}

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
