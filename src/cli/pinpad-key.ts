import { parseArgs } from 'node:util';
import { PINPAD_KEY_MAX_AGE_DAYS, rotatePinpadKey } from '../adapters/index.js';
import { loadConfig } from '../config/index.js';
import type { Command } from './context.js';

export const pinpadRotateKey: Command = {
  path: ['pinpad', 'rotate-key'],
  summary: "replace the terminal's RSA key for the pinpad's secure channel",
  usage: `omnipos pinpad rotate-key [--config PATH]

Makes a new 2048-bit RSA key in the state directory (pinpad-terminal-key.pem, mode 0600), in place
of the old one, atomically. Each secure OPN sends the terminal's public key and the pinpad wraps a
new session key under it, so the pinpad needs nothing: restart the daemon and its next session uses
the new key. The daemon also replaces a key older than ${PINPAD_KEY_MAX_AGE_DAYS} days when it starts.

Example:
  omnipos pinpad rotate-key --config /etc/omnipos/omnipos.json`,
  run(args, ctx) {
    const { values } = parseArgs({ args, options: { config: { type: 'string' } }, strict: true });
    const stateDir = loadConfig({ ...(values.config ? { path: values.config } : {}), env: ctx.env }).values.stateDir;
    const { file } = rotatePinpadKey(stateDir);
    ctx.out(`new terminal key in ${file}: restart the daemon (systemctl restart omnipos) to use it\n`);
    return Promise.resolve(0);
  },
};
