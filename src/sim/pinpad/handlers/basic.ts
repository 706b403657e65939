import { GCD_PROMPTS } from '../spec/gcd-messages.js';
import { LAYOUTS } from '../spec/layouts.js';
import type { SimHandler } from '../engine.js';
import { readParams } from '../card/kit.js';
import { writeAnswer as encodeResponse } from '../wire/command.js';
import { isLayoutFault, readLayout } from '../wire/layout.js';
import { packBlocks, writeDatum } from '../wire/params.js';
import { displayLines } from '../wire/two-lines.js';

const ST_INVPARM = 11;

/** Replaces each character below 20h with `by`. */
function controlsTo(text: string, by: string): string {
  return [...text].map((c) => (c.charCodeAt(0) < 0x20 ? by : c)).join('');
}
const ST_TIMEOUT = 12;
const ST_MANDAT = 19;

/** DSP (§3.3.5/§6.5.5): control characters become spaces, short messages are padded, extra is ignored. */
export const dsp: SimHandler = (cmd, ctx) => {
  const raw = Buffer.from(cmd.blocks[0] ?? new Uint8Array()).toString('latin1');
  const msg = controlsTo(raw, ' ').padEnd(32, ' ').slice(0, 32);
  ctx.state.display = [msg.slice(0, 16).trimEnd(), msg.slice(16).trimEnd()];
  return encodeResponse('DSP', 0);
};

/** DEX (§3.3.4/§6.5.4): DEX_MSGLEN must match DEX_MSG and be at most 160; characters below 20h break lines. */
export const dex: SimHandler = (cmd, ctx) => {
  const block = cmd.blocks[0];
  if (!block) return encodeResponse('DEX', ST_INVPARM);
  // §6.5.4: any character below 20h in DEX_MSG is a line break, so DEX_MSG's bytes are not refused
  const f = readLayout(LAYOUTS.DEX_REQUEST, block, ['DEX_MSG']);
  if (isLayoutFault(f)) return encodeResponse('DEX', ST_INVPARM);
  // a 2.12 pinpad's DEX has no DEX_OPTIONS (the PPC930 of the public log): it refuses them
  if (ctx.profile.answers === '2.12' && f.DEX_OPTIONS !== undefined) return encodeResponse('DEX', ST_INVPARM);
  ctx.state.display = controlsTo(String(f.DEX_MSG), '\n').split('\n');
  return encodeResponse('DEX', 0);
};

/** GCD (§3.3.8/§6.5.8, blocking): shows the fixed prompt, waits for keys, returns PP_VALUE. */
export const gcd: SimHandler = async (cmd, ctx) => {
  const ps = readParams(cmd);
  const get = (name: string) => ps.get(name);
  const idx = get('SPE_MSGIDX');
  if (typeof idx !== 'number') return encodeResponse('GCD', ST_MANDAT);
  const prompt = GCD_PROMPTS.get(idx);
  if (prompt === undefined) return encodeResponse('GCD', ST_INVPARM);
  const min = typeof get('SPE_MINDIG') === 'number' ? (get('SPE_MINDIG') as number) : 0;
  const max = typeof get('SPE_MAXDIG') === 'number' ? (get('SPE_MAXDIG') as number) : 32;
  if (max < min || max > 32) return encodeResponse('GCD', ST_INVPARM);
  const timeoutS = get('SPE_TIMEOUT');
  // §6.5.8: the fixed messages "propositalmente não possuem formatação": laid out at a word, as the notification
  ctx.state.display = displayLines(prompt);
  ctx.notify(prompt);
  const typed = ctx.nextKeys();
  const timeout =
    typeof timeoutS === 'number' && timeoutS > 0
      ? new Promise<null>((r) => setTimeout(() => r(null), timeoutS * 1000).unref())
      : new Promise<null>(() => undefined);
  const aborted = new Promise<null>((r) => ctx.signal.addEventListener('abort', () => r(null), { once: true }));
  const keys = await Promise.race([typed, timeout, aborted]);
  ctx.state.display = ['', ''];
  if (ctx.signal.aborted) return encodeResponse('GCD', 13);
  if (keys === null) return encodeResponse('GCD', ST_TIMEOUT);
  if (keys === '\x18') return encodeResponse('GCD', 13);
  const value = keys.slice(0, max);
  if (value.length < min) return encodeResponse('GCD', ST_INVPARM);
  return encodeResponse('GCD', 0, packBlocks([writeDatum('PP_VALUE', value)]));
};
