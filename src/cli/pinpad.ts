import { parseArgs } from 'node:util';
import {
  BIBCOMP_CARD_SALES_REASON,
  displayWithFallback,
  findPinpadLibraries,
  listDevicePorts,
  loadPinpadKey,
  openPinpadTarget,
  withPinpadSession,
  type PinpadInfo,
  type PinpadTarget,
  type PinpadTargetOptions,
  type SecurePinpad,
  type SecureStatus,
  type TerminalKey,
} from '../adapters/index.js';
import { loadConfig } from '../config/index.js';
import { OmniposError } from '../core/index.js';
import { printJson, type CliContext, type Command } from './context.js';
import { hostPortOption } from './options.js';

export const TARGET_OPTIONS = {
  port: { type: 'string' },
  tcp: { type: 'string' },
  config: { type: 'string' },
  json: { type: 'boolean' },
} as const;

/** The pinpad a command talks to: the one src/adapters/devices.ts builds for the daemon too. */
export type Target = PinpadTarget;

/**
 * --port, --tcp, or the configured device (the embedded virtual pinpad by default), built by the
 * daemon's own factory: a command reaches exactly the pinpads the daemon runs.
 */
export async function resolveTarget(
  values: { port?: string; tcp?: string; config?: string },
  ctx: CliContext,
  opts: PinpadTargetOptions = {},
): Promise<Target> {
  if (values.port) return openPinpadTarget({ kind: 'serial', path: values.port, baudRate: 19200 }, opts);
  if (values.tcp) return openPinpadTarget({ kind: 'tcp', ...hostPortOption(values.tcp) }, opts);
  return openPinpadTarget(
    loadConfig({ ...(values.config ? { path: values.config } : {}), env: ctx.env }).values.pinpad.device,
    opts,
  );
}

// --- secure channel: every command connects with a secure OPN under the terminal key of the state directory
/** The terminal's pinpad key (made at first use in the configured state directory). */
export function terminalKey(values: { config?: string }, ctx: CliContext): TerminalKey {
  const stateDir = loadConfig({ ...(values.config ? { path: values.config } : {}), env: ctx.env }).values.stateDir;
  return loadPinpadKey(stateDir).key;
}

/**
 * What `pinpad info` says about recognition (§3.2.2), the secure session and card sales. Behind a
 * BibComp library the answer is the specification's, whatever the pinpad: the library carries text,
 * so no secure channel and no Abecs command, hence no card sale (drivers/bibcomp/reach.ts).
 */
function secureFields(
  s: SecureStatus,
  kind: Target['kind'],
): { recognition: string; secure: boolean; cardSales: string } {
  if (kind === 'bibcomp')
    return {
      recognition: 'behind a BibComp library: classic commands only, as text (PP_StartGenericCmd)',
      secure: false,
      cardSales: `no — ${BIBCOMP_CARD_SALES_REASON}`,
    };
  const recognition =
    s.recognition === 'abecs'
      ? 'current (answered the secure OPN)'
      : s.recognition === 'classic'
        ? 'classic (answered OPN as an obsolete pinpad)'
        : 'unknown';
  return {
    recognition,
    secure: s.secure,
    cardSales: s.recognition === 'abecs' ? 'supported' : 'not supported for card sales',
  };
}
// --- end secure channel

/** Connects (secure OPN), runs `f`, closes; driver errors become OmniposError (src/adapters/pinpad-session.ts). */
export function withPinpad<T>(target: Target, f: (p: SecurePinpad) => Promise<T>, key: TerminalKey): Promise<T> {
  return withPinpadSession(target, key, f);
}

function slotsText(slots: Readonly<Record<string, string>>): string {
  const present = Object.entries(slots)
    .filter(([, v]) => v === 'present')
    .map(([k]) => k);
  return present.length ? present.join(' ') : 'none';
}

function infoText(info: PinpadInfo, where: string, secure: ReturnType<typeof secureFields>): string {
  const lines = [
    ['device', where],
    ['recognition', secure.recognition],
    ['secure', secure.secure ? 'yes (AES session, §5.2)' : 'no'],
    ['card sales', secure.cardSales],
    ['answered', info.source === 'GIX' ? 'GIX (current command set)' : 'GIN (classic command set only)'],
    ['manufacturer', info.manufacturer],
    ['model', info.model],
    ['serial number', info.serialNumber],
    ['firmware', info.firmware],
    ['spec version', info.specVersion],
    ['manager version', info.managerVersion],
    ['application', info.appVersion ?? '-'],
    ['EMV kernel', info.kernelVersion ?? '-'],
    ['contactless', info.contactless ? 'yes' : 'no'],
    ['DUKPT PIN keys', slotsText(info.keys.dukptPin)],
    ['DUKPT data keys', info.keys.dukptData ? slotsText(info.keys.dukptData) : '-'],
  ];
  return lines.map(([k, v]) => `${k!.padEnd(16)} ${v}`).join('\n') + '\n';
}

export const pinpadInfo: Command = {
  path: ['pinpad', 'info'],
  summary: 'show the pinpad model, serial number, firmware, spec version and key slots',
  usage: `omnipos pinpad info [--port PATH | --tcp HOST:PORT] [--config PATH] [--json]

Connects (CAN, secure OPN under the terminal key of the state directory), asks GIX — or GIN when
the pinpad knows only the classic commands — and prints what it says, with the recognition (a
pinpad answering the secure OPN follows ABECS 2.20; one answering as an obsolete pinpad is not
supported for card sales) and whether a secure session is up ("secure"). Behind a BibComp library
("kind": "bibcomp") "card sales" gives the specification's reason a library cannot sell (its
generic command carries NUL-terminated text: no Abecs command, no secure channel). Without --port
or --tcp, uses the configured device (the embedded virtual pinpad by default).

Example:
  omnipos pinpad info
  omnipos pinpad info --port /dev/pinpad --json`,
  async run(args, ctx) {
    const { values } = parseArgs({ args, options: TARGET_OPTIONS, strict: true });
    const key = terminalKey(values, ctx);
    const target = await resolveTarget(values, ctx);
    const { info, secure } = await withPinpad(
      target,
      async (p) => ({ info: await p.info(), secure: secureFields(p.secure, target.kind) }),
      key,
    );
    if (values.json) printJson(ctx, { device: target.description, ...secure, ...info });
    else ctx.out(infoText(info, target.description, secure));
    return 0;
  },
};

export const pinpadDisplay: Command = {
  path: ['pinpad', 'display'],
  summary: 'show a message on the pinpad display',
  usage: `omnipos pinpad display TEXT [--port PATH | --tcp HOST:PORT] [--config PATH]

Shows TEXT with DSP (2 lines of 16) when it fits; longer text or text with "\\n" goes with DEX
(up to 160 characters), which classic pinpads may not know.

Example:
  omnipos pinpad display 'CAIXA LIVRE' --port /dev/pinpad`,
  async run(args, ctx) {
    const { values, positionals } = parseArgs({ args, options: TARGET_OPTIONS, strict: true, allowPositionals: true });
    const text = positionals.join(' ').replace(/\\n/g, '\n');
    if (!text) throw new OmniposError('INVALID_ARGUMENT', 'give the TEXT to show', {});
    const key = terminalKey(values, ctx);
    const target = await resolveTarget(values, ctx);
    const lines = text.split('\n');
    const fits = lines.length <= 2 && lines.every((l) => l.length <= 16);
    const twoBySixteen = (): [string, string] =>
      fits
        ? [lines[0] ?? '', lines[1] ?? '']
        : [text.replace(/\n/g, ' ').slice(0, 16), text.replace(/\n/g, ' ').slice(16, 32)];
    await withPinpad(
      target,
      async (p) => {
        if (fits) return p.display(twoBySixteen());
        // a pinpad that knows only the classic commands: the first 32 characters with DSP
        await displayWithFallback(p, text, twoBySixteen(), () =>
          ctx.err('the pinpad does not know DEX; showing the first 32 characters with DSP\n'),
        );
      },
      key,
    );
    if (values.json) printJson(ctx, { shown: text });
    return 0;
  },
};

export const pinpadPorts: Command = {
  path: ['pinpad', 'ports'],
  summary: 'list serial ports and say which look like pinpads, and pinpads on USB with no port (sends nothing)',
  usage: `omnipos pinpad ports [--json] [--lib-dir DIR]...

Lists serial ports as the OS reports them, with their stable udev names and USB ids, and marks those
whose USB ids are known pinpads; a known pinpad the kernel sees on USB with no serial port (another USB
mode, or no cdc_acm driver) is listed with why it cannot be opened; then the BibComp libraries (lib*ppcomp*.so, *bibcomp*.so) found
in /usr/lib, /usr/lib64, /usr/local/lib, the multiarch folders and /opt/*/lib (and each --lib-dir),
for "pinpad.device": {"kind": "bibcomp", "library": PATH}. Nothing is opened, loaded or sent.

Example:
  omnipos pinpad ports --json`,
  async run(args, ctx) {
    const { values } = parseArgs({
      args,
      options: { json: { type: 'boolean' }, 'lib-dir': { type: 'string', multiple: true } },
      strict: true,
    });
    const libraries = findPinpadLibraries(values['lib-dir'] ?? []).map((p) => ({
      kind: 'library' as const,
      path: p,
      pinpad: 'BibComp library',
    }));
    const ports = await listDevicePorts();
    if (values.json) {
      printJson(ctx, [...ports, ...libraries]);
      return 0;
    }
    if (ports.length === 0) ctx.out('no serial ports found\n');
    for (const l of libraries) ctx.out(`library ${l.path}  <- BibComp library (kind "bibcomp")\n`);
    for (const p of ports) {
      const ids =
        p.vendorId !== undefined
          ? ` ${p.vendorId.toString(16).padStart(4, '0')}:${(p.productId ?? 0).toString(16).padStart(4, '0')}`
          : '';
      ctx.out(
        `${p.kind.padEnd(6)} ${p.path}${ids}${p.manufacturer ? ` ${p.manufacturer}` : ''}${p.pinpad ? `  <- pinpad (${p.pinpad})` : ''}${p.unusable ? `: ${p.unusable}` : ''}\n`,
      );
      for (const a of p.aliases ?? []) ctx.out(`         ${a}\n`);
    }
    return 0;
  },
};
