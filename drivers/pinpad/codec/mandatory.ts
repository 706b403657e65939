import { abecsIdByName } from '../../../tables/pinpad/abecs-ids.js';
import { ABECS_COMMAND_PARAMS, type CommandParams } from '../../../tables/pinpad/command-params.js';
import { PinpadError } from '../errors.js';
import { decodeCommand } from './message.js';
import { decodeParams } from './params.js';

/**
 * The driver's check of an "Abecs" command against the specification's table before it is sent: every
 * parameter the command's section marks M (tables/pinpad/command-params.ts) must be in the packet, or a
 * pinpad would answer ST_MANDAT (§3.1.3.1, §6.2.2) after the command went on the wire. MD parameters
 * depend on others and are the command's own business; commands without a parameter table pass.
 * A missing one is PINPAD_INVALID_ARGUMENT naming the command, the parameter and the section.
 */
export function checkMandatoryParams(id: string, data: Uint8Array): void {
  const table = Object.hasOwn(ABECS_COMMAND_PARAMS, id)
    ? (ABECS_COMMAND_PARAMS as Record<string, CommandParams>)[id]
    : undefined;
  if (!table) return;
  const mandatory = Object.entries(table.params).filter(([, presence]) => presence === 'M');
  if (mandatory.length === 0) return;
  const present = new Set(decodeParams(decodeCommand(data).blocks, id).map((p) => p.id));
  for (const [name] of mandatory) {
    const parId = abecsIdByName(name)?.id;
    if (parId !== undefined && present.has(parId)) continue;
    throw new PinpadError(
      'PINPAD_INVALID_ARGUMENT',
      `${id}: mandatory parameter ${name} missing (§${table.section}); not sent`,
      { command: id, parameter: name, section: table.section },
    );
  }
}
