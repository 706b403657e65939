import net from 'node:net';
import { parseArgs } from 'node:util';
import { readCardEncrypted, type SecurePinpad } from '../adapters/index.js';
import { loadConfig } from '../config/index.js';
import { OmniposError } from '../core/index.js';
import { printJson, type CliContext, type Command } from './context.js';
import { resolveTarget, TARGET_OPTIONS, terminalKey, withPinpad } from './pinpad.js';
import { intOption } from './options.js';

function pinpadConfig(
  values: { config?: string },
  ctx: CliContext,
): { pinKeySlot: number; dataKeySlot: number; acquirerIndex: number } {
  return loadConfig({ ...(values.config ? { path: values.config } : {}), env: ctx.env }).values.pinpad;
}

function localNow(): { date: string; time: string } {
  const d = new Date();
  const p = (n: number): string => String(n).padStart(2, '0');
  return {
    date: `${p(d.getFullYear() % 100)}${p(d.getMonth() + 1)}${p(d.getDate())}`,
    time: `${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}`,
  };
}

/** What read-card reports: the masked read and, for the encrypted data, only lengths and KSNs. */
interface CardReport {
  device: string;
  cardType: string;
  cardTypeCode: string;
  maskedPan?: string;
  label?: string;
  panSequenceNumber?: string;
  iccStatus?: string;
  aidTables: string[];
  deviceType?: string;
  track2?: { hexLength: number; ksn: string };
  pan?: { hexLength: number; ksn: string };
}

export const pinpadReadCard: Command = {
  path: ['pinpad', 'read-card'],
  summary: 'read a card on the pinpad: the masked PAN and card type (never a clear number)',
  usage: `omnipos pinpad read-card [--tcp HOST:PORT | --port PATH] [--config FILE] [--json]
                            [--amount CENTS] [--no-contactless] [--timeout S]

Runs GCX (contactless rules of ABECS §3.7.1), then GTK method 51 with the configured DUKPT data
key slot, then RMC. Prints the card type and the masked PAN (first 8 and last 4 digits); with
--json also the encrypted track 2 and PAN: their length in hex digits and their KSN. No clear card
number, track or PIN is ever shown. Without --port or --tcp, uses the configured device (the
embedded virtual pinpad by default).

Example:
  omnipos pinpad read-card --json`,
  async run(args: string[], ctx: CliContext) {
    const { values } = parseArgs({
      args,
      options: {
        ...TARGET_OPTIONS,
        amount: { type: 'string' },
        'no-contactless': { type: 'boolean' },
        timeout: { type: 'string' },
      },
      strict: true,
    });
    const cfg = pinpadConfig(values, ctx);
    const amount = intOption(values.amount, 'amount', 0, 999_999_999_999) ?? 0;
    const timeoutS = intOption(values.timeout, 'timeout', 1, 255) ?? 60;
    const target = await resolveTarget(values, ctx);
    const report = await withPinpad(
      target,
      async (p: SecurePinpad): Promise<CardReport> => {
        const prompts: string[] = [];
        const { read, encrypted: enc } = await readCardEncrypted(
          p,
          {
            amount,
            ...localNow(),
            acquirer: String(cfg.acquirerIndex).padStart(2, '0'),
            contactless: values['no-contactless'] !== true,
            timeoutS,
          },
          cfg.dataKeySlot,
          (x) => prompts.push(x),
        );
        return {
          device: target.description,
          cardType: read.cardType,
          cardTypeCode: read.cardTypeCode,
          ...(read.maskedPan ? { maskedPan: read.maskedPan } : {}),
          ...(read.label ? { label: read.label } : {}),
          ...(read.panSequenceNumber ? { panSequenceNumber: read.panSequenceNumber } : {}),
          ...(read.iccStatus ? { iccStatus: read.iccStatus } : {}),
          aidTables: read.aidTables.map((a) => `${a.acquirer}${a.index} (type ${a.applicationType})`),
          ...(read.deviceType ? { deviceType: read.deviceType } : {}),
          ...(enc.track2 ? { track2: { hexLength: enc.track2.data.length, ksn: enc.track2.ksn } } : {}),
          ...(enc.pan ? { pan: { hexLength: enc.pan.data.length, ksn: enc.pan.ksn } } : {}),
        };
      },
      terminalKey(values, ctx),
    );
    if (values.json) printJson(ctx, report);
    else {
      const lines = [
        ['device', report.device],
        ['card type', `${report.cardType} (${report.cardTypeCode})`],
        ['PAN', report.maskedPan ?? '(not read)'],
        ...(report.label ? [['application', report.label]] : []),
        ...(report.iccStatus ? [['last chip read', report.iccStatus]] : []),
        ...(report.aidTables.length ? [['AID tables', report.aidTables.join(', ')]] : []),
        ['track 2', report.track2 ? `encrypted (${report.track2.hexLength} hex digits)` : 'none'],
      ];
      ctx.out(`${lines.map(([k, v]) => `${k!.padEnd(15)} ${v}`).join('\n')}\n`);
    }
    return 0;
  },
};

export const pinpadTables: Command = {
  path: ['pinpad', 'tables'],
  summary: 'the EMV table versions the pinpad holds, per network (GIX PP_TABVERnn)',
  usage: `omnipos pinpad tables [--tcp HOST:PORT | --port PATH] [--config FILE] [--json]

Asks GIX for PP_TABVER00..99 (ABECS §3.1.3.2) and lists the networks with tables and their
10-character version ("0000000000" = no version). 00 is the general version.

Example:
  omnipos pinpad tables --json`,
  async run(args: string[], ctx: CliContext) {
    const { values } = parseArgs({ args, options: TARGET_OPTIONS, strict: true });
    const target = await resolveTarget(values, ctx);
    const versions = await withPinpad(
      target,
      async (p) => {
        const out: Record<string, string> = {};
        for (let i = 0; i < 100; i += 50) {
          const r = await p.gix(Array.from({ length: 50 }, (_, k) => 0x9300 + i + k));
          for (const [k, v] of Object.entries(r.data)) {
            const m = /^PP_TABVER(\d\d)$/.exec(k);
            if (m && typeof v === 'string') out[m[1]!] = v;
          }
        }
        return out;
      },
      terminalKey(values, ctx),
    );
    if (values.json) printJson(ctx, { device: target.description, versions });
    else {
      const rows = Object.entries(versions).map(
        ([n, v]) => `network ${n}  ${v}${v === '0000000000' ? '  (no version)' : ''}`,
      );
      ctx.out(`${target.description}\n${rows.length ? rows.join('\n') : 'no EMV tables'}\n`);
    }
    return 0;
  },
};

/** Sends one JSON line to the virtual pinpad's control port and returns its answer. */
function control(host: string, port: number, msg: object): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const s = net.connect({ host, port });
    let buf = '';
    const t = setTimeout(
      () => (
        s.destroy(),
        reject(
          new OmniposError('PINPAD_NOT_FOUND', `no answer from the virtual pinpad's control port ${host}:${port}`, {
            port,
          }),
        )
      ),
      5000,
    );
    s.on(
      'error',
      (e) => (
        clearTimeout(t),
        reject(
          new OmniposError(
            'PINPAD_NOT_FOUND',
            `cannot reach the virtual pinpad's control port ${host}:${port} (${e.message})`,
            { port },
          ),
        )
      ),
    );
    s.on('connect', () => s.write(`${JSON.stringify(msg)}\n`));
    s.on('data', (d: Buffer) => {
      buf += d.toString('utf8');
      const nl = buf.indexOf('\n');
      if (nl < 0) return;
      clearTimeout(t);
      s.end();
      try {
        resolve(JSON.parse(buf.slice(0, nl)) as Record<string, unknown>);
      } catch {
        reject(new OmniposError('PINPAD_NOT_FOUND', 'the control port answered something that is not JSON', { port }));
      }
    });
  });
}

export const simCard: Command = {
  path: ['sim', 'card'],
  summary: 'pick the card the virtual pinpad presents (its control port)',
  usage: `omnipos sim card --control [HOST:]PORT [--list]
                     [--last-digit N | --pan PAN | --name TEXT | --cancel | --nothing]
                     [--via chip|contactless|stripe] [--pin right|cancel|nothing|DIGITS]
                     [--decline-after-approval | --approve-after-approval]

Tells a running "omnipos sim pinpad --control PORT" what the customer does at the next card
prompt: which test card (tables/test-cards.json) and how it is presented, what is typed at the PIN
prompt, and whether the card declines after the host approved. --list prints the deck (masked PANs),
what is presented now, and the EMV table versions the virtual pinpad holds.

Example:
  omnipos sim card --control 7002 --list`,
  async run(args: string[], ctx: CliContext) {
    const { values } = parseArgs({
      args,
      options: {
        control: { type: 'string' },
        list: { type: 'boolean' },
        'last-digit': { type: 'string' },
        pan: { type: 'string' },
        name: { type: 'string' },
        cancel: { type: 'boolean' },
        nothing: { type: 'boolean' },
        via: { type: 'string' },
        pin: { type: 'string' },
        'decline-after-approval': { type: 'boolean' },
        'approve-after-approval': { type: 'boolean' },
        json: { type: 'boolean' },
      },
      strict: true,
    });
    const m = /^(?:(.+):)?(\d{1,5})$/.exec(values.control ?? '');
    if (!m)
      throw new OmniposError(
        'INVALID_ARGUMENT',
        '--control: give the control port of "omnipos sim pinpad" ([HOST:]PORT)',
        { option: 'control' },
      );
    const host = m[1] ?? '127.0.0.1';
    const port = Number(m[2]);
    if (values.via !== undefined && !['chip', 'contactless', 'stripe'].includes(values.via))
      throw new OmniposError('INVALID_ARGUMENT', '--via: chip, contactless or stripe', { option: 'via' });
    if (values.pin !== undefined && !/^(right|cancel|nothing|\d{4,12})$/.test(values.pin))
      throw new OmniposError('INVALID_ARGUMENT', '--pin: right, cancel, nothing or 4 to 12 digits', { option: 'pin' });
    if (values.list) {
      const r = await control(host, port, { cmd: 'deck' });
      if (values.json) printJson(ctx, r);
      else {
        const cards =
          (r.cards as { name: string; pan: string; interfaces: string[]; outcome: number; failure?: string }[]) ?? [];
        ctx.out(
          `${cards.map((c) => `${c.pan.padEnd(20)} ${c.interfaces.join('/').padEnd(24)} ${c.name}${c.failure ? ` [${c.failure}]` : ''}`).join('\n')}\npresented: ${String(r.presented)}\n`,
        );
      }
      return 0;
    }
    const choice = {
      ...(values['last-digit'] !== undefined ? { lastDigit: intOption(values['last-digit'], 'last-digit', 0, 9) } : {}),
      ...(values.pan !== undefined ? { pan: values.pan } : {}),
      ...(values.name !== undefined ? { name: values.name } : {}),
      ...(values.cancel ? { action: 'cancel' } : values.nothing ? { action: 'nothing' } : {}),
      ...(values.via !== undefined ? { via: values.via } : {}),
      ...(values.pin !== undefined ? { pin: values.pin } : {}),
      ...(values['decline-after-approval']
        ? { declineAfterApproval: true }
        : values['approve-after-approval']
          ? { declineAfterApproval: false }
          : {}),
    };
    const r = await control(host, port, { cmd: 'card', choice });
    if (r.ok !== true) throw new OmniposError('INVALID_ARGUMENT', `the virtual pinpad refused: ${String(r.error)}`, {});
    if (values.json) printJson(ctx, r);
    else ctx.out(`presented: ${String(r.presented)}\n`);
    return 0;
  },
};
