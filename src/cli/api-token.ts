import { parseArgs } from 'node:util';
import { loadConfigQuickly } from '../config/load-quick.js';
import { ensureApiToken } from '../store/api-token.js';
import type { Command } from './context.js';

export const apiToken: Command = {
  path: ['api', 'token'],
  summary: "print the local API's bearer token (created at first start)",
  usage: `omnipos api token [--config PATH]

Prints the bearer token the cash register sends as "Authorization: Bearer <token>". It lives in
<stateDir>/api-token (mode 0600) and is created if missing. Hand it to the cash register only.

Example:
  curl -s localhost:7878/v1/health -H "Authorization: Bearer $(omnipos api token)"`,
  async run(args, ctx) {
    const { values } = parseArgs({ args, options: { config: { type: 'string' } }, strict: true });
    const config = await loadConfigQuickly({ ...(values.config ? { path: values.config } : {}), env: ctx.env });
    ctx.out(`${ensureApiToken(config.values.stateDir).token}\n`);
    return 0;
  },
};
