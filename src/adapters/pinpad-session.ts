import { randomBytes } from 'node:crypto';
import {
  card,
  isPinpadError,
  isUnknownCommand,
  SecurePinpad,
  type PinpadErrorCode,
  type TerminalKey,
} from '../../drivers/pinpad/index.js';
import { isTransportError } from '../../drivers/transport/index.js';
import { OmniposError, withDeadline, type ErrorCode } from '../core/index.js';
import type { Logger } from '../core/log/index.js';
import type { PinpadTarget } from './devices.js';
import { gcxDeadlineMs, removeCardDeadlineMs } from './pinpad-card-kit.js';

/** Compile-time proof that every driver code is in the catalogue under the same name. */
type Missing = Exclude<PinpadErrorCode, ErrorCode>;
const _everyPinpadCodeIsCatalogued: Missing extends never ? true : Missing = true;
void _everyPinpadCodeIsCatalogued;

/**
 * Maps what the pinpad driver and transports throw to OmniposError (same code, message and
 * context); anything else passes through unchanged. A transport that cannot open is
 * PINPAD_NOT_FOUND, any other transport failure PINPAD_DISCONNECTED.
 */
export function fromDriverError(e: unknown): unknown {
  if (isPinpadError(e)) return new OmniposError(e.code, e.message, e.context, { cause: e });
  if (isTransportError(e)) {
    return new OmniposError(
      e.code === 'TRANSPORT_OPEN_FAILED' ? 'PINPAD_NOT_FOUND' : 'PINPAD_DISCONNECTED',
      e.message,
      e.context,
      { cause: e },
    );
  }
  return e;
}

/**
 * A technician's session on the pinpad of `target` (the CLI's commands, `omnipos init`): the secure
 * channel under the terminal key, connected once, no probe and no reconnect (the daemon's session
 * keeps both: src/adapters/pinpad-device.ts). A failed connect closes the driver and throws the
 * catalogue's error; the caller closes a session it got.
 */
export async function openPinpadSession(
  target: Pick<PinpadTarget, 'transport'>,
  terminalKey: TerminalKey,
  log?: Logger,
): Promise<SecurePinpad> {
  const pinpad = new SecurePinpad({
    transport: target.transport,
    terminalKey,
    probeIntervalMs: 0,
    reconnect: { enabled: false },
    ...(log ? { log } : {}),
  });
  try {
    await pinpad.connect();
    return pinpad;
  } catch (e) {
    await pinpad.close().catch(() => undefined);
    throw fromDriverError(e);
  }
}

/** Opens a technician's session, runs `f`, closes it and stops the target; driver errors become OmniposError. */
export async function withPinpadSession<T>(
  target: PinpadTarget,
  terminalKey: TerminalKey,
  f: (p: SecurePinpad) => Promise<T>,
): Promise<T> {
  try {
    const pinpad = await openPinpadSession(target, terminalKey);
    try {
      return await f(pinpad);
    } catch (e) {
      throw fromDriverError(e);
    } finally {
      await pinpad.close();
    }
  } finally {
    await target.stop();
  }
}

/**
 * Shows `text` centred with DEX; a pinpad that knows only the classic commands (ERR010 to DEX)
 * gets `fallback` (two lines of 16) with DSP instead, and `onFallback` is told.
 */
export async function displayWithFallback(
  p: SecurePinpad,
  text: string,
  fallback: readonly [string, string],
  onFallback: () => void,
): Promise<void> {
  try {
    await p.displayEx(text, { horizontal: 'center', vertical: 'center' });
  } catch (e) {
    if (!isUnknownCommand(e)) throw e;
    onFallback();
    await p.display([fallback[0], fallback[1]]);
  }
}

/** What `pinpad read-card` asks: the amount, the pinpad's local date and time, the acquirer's table index. */
export interface CardReadRequest {
  amount: number;
  date: string;
  time: string;
  acquirer: string;
  contactless: boolean;
  timeoutS: number;
}

/**
 * A card read for a technician (`omnipos pinpad read-card`): GCX with the contactless rules, then
 * GTK under the DUKPT data key slot (the encrypted track 2 and PAN: their length and KSN are
 * reported, never a clear number), then RMC. The prompts the pinpad showed go to `onPrompt`.
 */
export async function readCardEncrypted(
  p: SecurePinpad,
  request: CardReadRequest,
  dataKeySlot: number,
  onPrompt: (text: string) => void,
): Promise<{ read: Awaited<ReturnType<typeof card.readCardWithRules>>; encrypted: card.GtkResult }> {
  // the sale's deadlines (pinpad-card-kit.ts): a lost answer ends the technician's read, never holds it
  const signal = withDeadline(undefined, gcxDeadlineMs(request.timeoutS));
  const read = await card.readCardWithRules(p, request, { onPrompt, signal });
  const encrypted = await p.run(card.GTK, { keyIndex: dataKeySlot, iv: randomBytes(8) });
  await p.run(card.RMC, ['LEITURA OK', 'RETIRE O CARTAO'], {
    signal: withDeadline(undefined, removeCardDeadlineMs(request.timeoutS)),
  });
  return { read, encrypted };
}
