import { describe, expect, it } from 'vitest';
import { checkMandatoryParams } from '../../../../../drivers/pinpad/codec/mandatory.js';
import { encodeCommand } from '../../../../../drivers/pinpad/codec/message.js';
import { encodeParams } from '../../../../../drivers/pinpad/codec/params.js';
import { isPinpadError } from '../../../../../drivers/pinpad/errors.js';
import { abecsIdByName } from '../../../../../tables/pinpad/abecs-ids.js';
import { ABECS_COMMAND_PARAMS, type CommandParams } from '../../../../../tables/pinpad/command-params.js';

/**
 * The driver checks an Abecs command's mandatory (M) parameters against the table
 * (tables/pinpad/command-params.ts, the "Comando" table of each section of ABECS 2.20) before a byte
 * is sent. The packets here are built from the table's parameter ids, not with the driver's specs.
 */
const packet = (id: string, names: readonly string[]): Uint8Array =>
  encodeCommand(id, encodeParams(names.map((n) => ({ id: abecsIdByName(n)!.id, value: Uint8Array.of(0x30) }))));

function refusal(id: string, data: Uint8Array): unknown {
  try {
    checkMandatoryParams(id, data);
    return undefined;
  } catch (e) {
    return e;
  }
}

describe('checkMandatoryParams (drivers/pinpad/codec/mandatory.ts)', () => {
  for (const [id, t] of Object.entries(ABECS_COMMAND_PARAMS as Record<string, CommandParams>)) {
    const mandatory = Object.keys(t.params).filter((n) => t.params[n] === 'M');
    it(`${id} (§${t.section}): passes with ${mandatory.join(', ') || 'no mandatory parameter'}, refuses each one missing by name`, () => {
      expect(refusal(id, packet(id, mandatory))).toBeUndefined();
      for (const name of mandatory) {
        const others = Object.keys(t.params).filter((n) => n !== name);
        const e = refusal(id, packet(id, others));
        expect(isPinpadError(e, 'PINPAD_INVALID_ARGUMENT'), `${id} without ${name}`).toBe(true);
        if (!isPinpadError(e)) continue;
        expect(e.message).toContain(id);
        expect(e.message).toContain(name);
        expect(e.context).toEqual({ command: id, parameter: name, section: t.section });
      }
    });
  }

  it('MD and O parameters are never asked for (GTK has no M parameter: §3.3.12 sends nothing mandatory)', () => {
    expect(refusal('GTK', encodeCommand('GTK'))).toBeUndefined();
    expect(refusal('MLE', encodeCommand('MLE'))).toBeUndefined();
  });

  it('classic commands and commands without a parameter table pass (their layout is fixed)', () => {
    expect(refusal('OPN', encodeCommand('OPN'))).toBeUndefined();
    expect(refusal('GIN', encodeCommand('GIN', [Uint8Array.from(Buffer.from('00'))]))).toBeUndefined();
  });
});
