import { returnCodeName } from '../../../tables/pinpad/return-codes.js';
import { PinpadError } from '../errors.js';
import type { Response } from '../codec/message.js';

/**
 * One command as data for the driver: its id, whether it blocks (§2.2.2), how a request becomes
 * PKTDATA and how a successful response (status 000, same id) becomes a result. The driver checks
 * the id and the status before `decode` runs.
 */
export interface CommandSpec<Req, Res> {
  readonly id: string;
  readonly blocking: boolean;
  /**
   * A non-blocking command a real pinpad may take longer than the 10 s of §2.2.2 to answer (a flash
   * write, the key maps of every slot): the driver waits LONG_ANSWER_FACTOR times its response time.
   */
  longAnswer?(req: Req): boolean;
  encode(req: Req): Uint8Array;
  decode(rsp: Response, req: Req): Res;
}

/** How many response times a command whose `longAnswer` holds is waited (30 s with the spec's 10 s). */
export const LONG_ANSWER_FACTOR = 3;

/**
 * Checks that `rsp` answers `id` with ST_OK. `ERR` (unknown command, §2.3.4) and any other status
 * become PINPAD_STATUS with `status` and `statusName`; another id is PINPAD_PROTOCOL.
 */
export function checkResponse(id: string, rsp: Response): void {
  if (rsp.id === 'ERR' || rsp.status !== 0) {
    const statusName = returnCodeName(rsp.status);
    throw new PinpadError(
      'PINPAD_STATUS',
      `${id}: pinpad answered ${rsp.id}${String(rsp.status).padStart(3, '0')} (${statusName})`,
      {
        command: id,
        responseId: rsp.id,
        status: rsp.status,
        statusName,
        unknownCommand: rsp.id === 'ERR',
      },
    );
  }
  if (rsp.id !== id) {
    throw new PinpadError('PINPAD_PROTOCOL', `${id}: the response is for ${JSON.stringify(rsp.id)}`, {
      command: id,
      responseId: rsp.id,
    });
  }
}

/**
 * True when `e` is the pinpad saying it does not know the command (ERR + ST_INVCALL), as a classic-only pinpad
 * answers GIX — or the driver knowing it first: an Abecs command refused before the wire to a pinpad that
 * answered OPN as obsolete (§3.2.2).
 */
export function isUnknownCommand(e: unknown): boolean {
  if (!(e instanceof PinpadError)) return false;
  // an Abecs command the driver does not send to a pinpad that answered OPN as obsolete (§3.2.2): unknown to it
  if (e.code === 'PINPAD_UNSUPPORTED') return e.context.reason === 'abecs-command';
  // ERR003/ERR009 are the secure channel refusing a packet (§2.3.4), not an unknown command
  return e.code === 'PINPAD_STATUS' && e.context.unknownCommand === true && e.context.status === 10;
}

/** Requires exactly `n` blocks in a response. */
export function blocks(rsp: Response, n: number): readonly Uint8Array[] {
  if (rsp.blocks.length !== n) {
    throw new PinpadError('PINPAD_PROTOCOL', `${rsp.id}: expected ${n} data block(s), got ${rsp.blocks.length}`, {
      where: rsp.id,
      blocks: rsp.blocks.length,
    });
  }
  return rsp.blocks;
}
