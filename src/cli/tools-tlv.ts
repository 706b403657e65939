import { parseArgs } from 'node:util';
import { decodeTlv, dumpTlv, tlvToJson } from '../emv/index.js';
import { OmniposError } from '../core/index.js';
import { printJson, type Command } from './context.js';

/** `omnipos tools tlv decode HEX`: BER-TLV as an indented dump, or JSON with `--json`; card data masked. */
export const toolsTlvDecode: Command = {
  path: ['tools', 'tlv', 'decode'],
  summary: 'decode BER-TLV hex (EMV data) with tag names; card data masked',
  usage: `omnipos tools tlv decode HEX... [--json]

Decodes BER-TLV (spaces in HEX are ignored, so a pasted dump works) and prints one line per
object, indented by nesting, with the EMV tag name. --json prints an array of
{tag, length, value, name?, masked?, children?}. Card data (tags 5A, 57, 56, 5F20, 9F0B, 9F1F,
9F20, 9F5E, 9F6B, 99) is always masked. Malformed data exits 2 naming the offset.

Example:
  omnipos tools tlv decode 9F2608C2A7E2F3B1D4E5F69F2701809F100706010A03A00000`,
  run(args, ctx) {
    const { values, positionals } = parseArgs({
      args,
      options: { json: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length === 0) throw new OmniposError('INVALID_ARGUMENT', 'expected the hex to decode', {});
    const objects = decodeTlv(positionals.join(''));
    if (values.json) printJson(ctx, tlvToJson(objects));
    else ctx.out(`${dumpTlv(objects)}\n`);
    return Promise.resolve(0);
  },
};
