/** The commands a terminal takes from the broker: none of them moves money. */
export const FLEET_COMMANDS = ['init', 'outbox-flush', 'status', 'day-report'] as const;
export type FleetCommand = (typeof FLEET_COMMANDS)[number];

/** Names that would move money: refused with that reason, whatever the payload. */
const MONEY = /^(sale|pay|payment|void|undo|confirm|cancel|refund|capture|pix|qr|reverse|reversal)(-|$)/i;

/** The largest command payload read, bytes. */
export const MAX_COMMAND_BYTES = 4096;

export type CommandCheck =
  | { ok: true; command: FleetCommand; requestId: string | null; args: Record<string, unknown> }
  | { ok: false; requestId: string | null; code: 'MOVES_MONEY' | 'UNKNOWN_COMMAND' | 'BAD_PAYLOAD'; reason: string };

function requestIdOf(body: unknown): string | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const id = (body as { id?: unknown }).id;
  return typeof id === 'string' && /^[\x21-\x7e]{1,64}$/.test(id) ? id : null;
}

/**
 * Checks a command as received: its name is one of FLEET_COMMANDS and its payload is empty or a
 * JSON object `{ "id"?: string (1–64 printable), "date"?: "YYYY-MM-DD" }`. Anything else is
 * refused with a reason a person reads. Never throws.
 */
export function checkCommand(name: string, payload: Uint8Array): CommandCheck {
  let body: unknown = {};
  if (payload.length > MAX_COMMAND_BYTES)
    return { ok: false, requestId: null, code: 'BAD_PAYLOAD', reason: `payload over ${MAX_COMMAND_BYTES} bytes` };
  const text = Buffer.from(payload).toString('utf8').trim();
  if (text !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      return { ok: false, requestId: null, code: 'BAD_PAYLOAD', reason: 'payload must be a JSON object' };
    }
  }
  const requestId = requestIdOf(body);
  if (MONEY.test(name)) {
    return {
      ok: false,
      requestId,
      code: 'MOVES_MONEY',
      reason: `'${name}' moves money: nothing that moves money is accepted over the broker (accepted: ${FLEET_COMMANDS.join(', ')})`,
    };
  }
  if (!(FLEET_COMMANDS as readonly string[]).includes(name)) {
    return {
      ok: false,
      requestId,
      code: 'UNKNOWN_COMMAND',
      reason: `'${name.slice(0, 64)}' is not a fleet command (accepted: ${FLEET_COMMANDS.join(', ')})`,
    };
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    return { ok: false, requestId: null, code: 'BAD_PAYLOAD', reason: 'payload must be a JSON object' };
  const b = body as Record<string, unknown>;
  if (b.id !== undefined && requestId === null)
    return { ok: false, requestId: null, code: 'BAD_PAYLOAD', reason: 'id must be 1 to 64 printable characters' };
  const extra = Object.keys(b).filter((k) => k !== 'id' && k !== 'date');
  if (extra.length > 0)
    return { ok: false, requestId, code: 'BAD_PAYLOAD', reason: `unexpected field ${extra[0]?.slice(0, 32) ?? ''}` };
  if (
    b.date !== undefined &&
    (typeof b.date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(b.date) || name !== 'day-report')
  ) {
    return { ok: false, requestId, code: 'BAD_PAYLOAD', reason: 'date is YYYY-MM-DD, and only for day-report' };
  }
  return { ok: true, command: name as FleetCommand, requestId, args: b.date !== undefined ? { date: b.date } : {} };
}
