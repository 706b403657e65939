import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { crc16, decodeCommand, decodeResponse, encodeCommand } from '../../../../drivers/pinpad/index.js';
import {
  OPN_SECURE,
  decodeSecureOpnBlock,
  encodeSecureOpnBlock,
  openPacket,
  sealPacket,
  terminalKeyFromComponents,
} from '../../../../drivers/pinpad/secure/index.js';

/**
 * The specification's own worked examples (ABECS 2.20, transcription guilhermecabral05/abecs-rust
 * protocolo_abecs_2_20.md), in test/vectors/abecs-secure-channel.json: §3.2.2 (secure OPN with its
 * RSA key, KPRV and KSEC) and §5.2.2.1/§5.2.2.2 (a GIX command and its answer under that KSEC).
 */
const V = JSON.parse(readFileSync(new URL('../../../vectors/abecs-secure-channel.json', import.meta.url), 'utf8')) as {
  opn: {
    command_ascii: string;
    answer_ascii: string;
    private_exponent_hex: string;
    opened_block_hex: string;
    ksec_hex: string;
  };
  packet: Record<
    | 'ksec_hex'
    | 'command_clrdata_hex'
    | 'command_block_hex'
    | 'command_pktdata_hex'
    | 'answer_pktdata_hex'
    | 'answer_block_hex'
    | 'answer_clrdata_hex',
    string
  >;
};

const hex = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s, 'hex'));
const latin1 = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s, 'latin1'));
const toHex = (b: Uint8Array): string => Buffer.from(b).toString('hex').toUpperCase();
const big = (b: Uint8Array): bigint => BigInt(`0x${toHex(b) || '0'}`);

function modPow(b: bigint, e: bigint, m: bigint): bigint {
  let r = 1n;
  for (b %= m; e > 0n; e >>= 1n, b = (b * b) % m) if (e & 1n) r = (r * b) % m;
  return r;
}

describe('§3.2.2 secure OPN, the specification example', () => {
  const command = latin1(V.opn.command_ascii);
  const block = decodeCommand(command).blocks[0]!;
  const pub = decodeSecureOpnBlock(block);

  it('decodes the SPE command: OPMODE 0, a 256-byte KMOD, KPUB = 0Dh', () => {
    expect(decodeCommand(command).id).toBe('OPN');
    expect(pub.opMode).toBe(0);
    expect(pub.modulus.length).toBe(256);
    expect(toHex(pub.modulus).slice(0, 12)).toBe('A82A660B3C49');
    expect(toHex(pub.publicExponent)).toBe('0D');
  });

  it('encodes the same command byte for byte from KMOD and KPUB', () => {
    expect(OPN_SECURE.encode(pub)).toEqual(command);
    expect(encodeCommand('OPN', [encodeSecureOpnBlock(pub)])).toEqual(command);
  });

  it('opens the pinpad answer with KPRV: the published PKCS#1 block and KSEC = DB3B4D01…9A94', () => {
    const rsp = decodeResponse(latin1(V.opn.answer_ascii));
    expect(rsp).toMatchObject({ id: 'OPN', status: 0 });
    const result = OPN_SECURE.decode(rsp, pub);
    if (result.kind !== 'abecs') throw new Error('expected a current pinpad answer');
    // raw RSA (BigInt), independent of node-forge: the published "CRKSEC aberto" block
    const opened = modPow(big(result.cryptogram), big(hex(V.opn.private_exponent_hex)), big(pub.modulus));
    expect(opened.toString(16).toUpperCase().padStart(512, '0')).toBe(V.opn.opened_block_hex);
    // the production path: node-forge, PKCS#1 v1.5
    const key = terminalKeyFromComponents({
      modulus: pub.modulus,
      publicExponent: pub.publicExponent,
      privateExponent: hex(V.opn.private_exponent_hex),
    });
    expect(toHex(key.unwrap(result.cryptogram))).toBe(V.opn.ksec_hex);
  });

  it('reads an obsolete pinpad answer (OPN000, no data) as no secure channel', () => {
    expect(OPN_SECURE.decode(decodeResponse(latin1('OPN000')), pub)).toEqual({ kind: 'obsolete' });
  });
});

describe('§5.2.2 packets under KSEC, the specification example', () => {
  const ksec = hex(V.packet.ksec_hex);

  it('the command block: DATALEN 0014h, DATACRC 8DF2h (the link CRC over CLRDATA), zero filler to 32 bytes', () => {
    const clr = hex(V.packet.command_clrdata_hex);
    const block = hex(V.packet.command_block_hex);
    expect(block.length).toBe(32);
    expect((block[0]! << 8) | block[1]!).toBe(clr.length);
    expect((block[2]! << 8) | block[3]!).toBe(crc16(clr));
    expect(block.subarray(4, 4 + clr.length)).toEqual(clr);
    expect(block.subarray(4 + clr.length).every((b) => b === 0)).toBe(true);
  });

  it('seals the GIX command to the published PKTDATA (DC2 + AES-CBC, IV 0) and opens it back', () => {
    const clr = hex(V.packet.command_clrdata_hex);
    expect(toHex(sealPacket(ksec, clr))).toBe(V.packet.command_pktdata_hex);
    expect(openPacket(ksec, hex(V.packet.command_pktdata_hex))).toEqual(clr);
  });

  it('opens the published answer to the GIX CLRDATA (DATALEN 00A0h, DATACRC 66EBh) and seals it back', () => {
    const clr = openPacket(ksec, hex(V.packet.answer_pktdata_hex));
    expect(toHex(clr)).toBe(V.packet.answer_clrdata_hex);
    expect(V.packet.answer_block_hex.slice(0, 8)).toBe('00A066EB');
    expect(Buffer.from(clr.subarray(0, 9)).toString('latin1')).toBe('GIX000151');
    expect(toHex(sealPacket(ksec, clr))).toBe(V.packet.answer_pktdata_hex);
  });
});
