import { closeSync, constants, fchmodSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { loadConfig, type Config } from '../config/index.js';
import { OmniposError, systemClock } from '../core/index.js';
import { parseBusinessDate, supportBundle, type SupportBundleDeps } from '../operations/index.js';
import { ensureApiToken, openTerminalDatabase } from '../store/index.js';
import type { Command } from './context.js';
import { version } from './version.js';

/**
 * Writes the bundle to `out` (mode 0600) without following a symbolic link there: the bundle is
 * often written by root (`sudo omnipos support bundle`) into a shared folder such as /tmp, where a
 * link planted by another user would have it overwrite any file (O_NOFOLLOW, so no race either).
 */
export function writeBundle(out: string, archive: Buffer): void {
  let fd: number;
  try {
    fd = openSync(out, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o600);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ELOOP')
      throw new OmniposError('INVALID_ARGUMENT', `--out ${out} is a symbolic link; the bundle does not follow one`);
    throw e;
  }
  try {
    fchmodSync(fd, 0o600);
    writeSync(fd, archive);
  } finally {
    closeSync(fd);
  }
}

/** The running daemon's health over its local API, or why it could not be asked. */
async function daemonHealth(config: Config): Promise<SupportBundleDeps['health']> {
  const { host, port } = config.values.api;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}/v1/health`;
  try {
    const { token } = ensureApiToken(config.values.stateDir);
    const res = await request(url, {
      headers: { authorization: `Bearer ${token}` },
      headersTimeout: 3000,
      bodyTimeout: 3000,
      signal: AbortSignal.timeout(4000),
    });
    const body: unknown = await res.body.json();
    return res.statusCode === 200 ? { reachable: true, body } : { reachable: false, reason: `HTTP ${res.statusCode}` };
  } catch (e) {
    return { reachable: false, reason: `the daemon's API at ${url} did not answer: ${(e as Error).message}` };
  }
}

export const supportBundleCommand: Command = {
  path: ['support', 'bundle'],
  summary: 'write one .tar.gz for support: configuration (secrets masked), versions, health, outbox, logs, the day',
  usage: `omnipos support bundle [--out FILE] [--date YYYY-MM-DD]... [--config PATH]

Writes a gzipped tar (default ./omnipos-support-<terminal>-<time>.tar.gz, mode 0600) with
README.txt, config.json (secrets shown only as the file they come from), versions.json,
health.json (from the running daemon's API, or why it could not be asked), outbox.json, day.json
(today's journal summary), archive.json (the archive of closed days), day-<date>.json for each
--date (a closed day's report, from the database or its archive file) and logs.txt (the end of <stateDir>/logs/omnipos.log). Nothing in it
is card data, a token or a key. Open it with: tar xzf FILE

Example:
  omnipos support bundle --out /tmp/omnipos-support.tar.gz`,
  async run(args, ctx) {
    const { values } = parseArgs({
      args,
      options: { config: { type: 'string' }, out: { type: 'string' }, date: { type: 'string', multiple: true } },
      strict: true,
    });
    const config = loadConfig({ ...(values.config ? { path: values.config } : {}), env: ctx.env });
    const health = await daemonHealth(config);
    const db = openTerminalDatabase(config.values.stateDir);
    let archive: Buffer;
    try {
      archive = supportBundle({
        config,
        db,
        clock: systemClock,
        version: version(),
        health,
        ...(values.date ? { dates: values.date.map((d) => parseBusinessDate(d, '--date')) } : {}),
      });
    } finally {
      db.close();
    }
    const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
    const out = path.resolve(values.out ?? `omnipos-support-${config.values.terminal.terminalId}-${stamp}.tar.gz`);
    writeBundle(out, archive);
    ctx.out(`${out} (${archive.length} bytes; daemon ${health.reachable ? 'answered' : 'not reachable'})\n`);
    return 0;
  },
};
