import { constants, createPublicKey, publicEncrypt, randomBytes } from 'node:crypto';
import { writeAnswer } from '../wire/command.js';
import { KSEC_BYTES } from './envelope.js';
import { readOpnBlock, writeOpnAnswer } from './opn-block.js';
import type { SimCommand, SimContext } from '../engine.js';
import { secureLayerOf, type SimSecureSession } from './layer.js';

const ST_INVPARM = 11;

const b64url = (b: Uint8Array): string => Buffer.from(b).toString('base64url');

/**
 * Wraps KSEC under the terminal's public key (§5.2.1): RSA with the PKCS#1 v1.5 type-2 block
 * `00 02 random-nonzero 00 KSEC`, the size of KMOD.
 */
export function wrapSessionKey(modulus: Uint8Array, publicExponent: Uint8Array, ksec: Uint8Array): Uint8Array {
  const key = createPublicKey({ key: { kty: 'RSA', n: b64url(modulus), e: b64url(publicExponent) }, format: 'jwk' });
  return Uint8Array.from(publicEncrypt({ key, padding: constants.RSA_PKCS1_PADDING }, ksec));
}

/**
 * OPN (§3.2.1, §3.2.2, §6.4.1): always accepted in clear; ends any session as CLO would. With
 * key data, a current pinpad draws a new KSEC and answers CRKSEC (in clear, as every OPN answer);
 * a classic-only profile answers `OPN000` as an obsolete pinpad does.
 */
export function openWithSecureChannel(cmd: SimCommand, ctx: SimContext): Uint8Array {
  ctx.state.session = {};
  ctx.state.opened = true;
  ctx.state.display = ['', ''];
  const layer = secureLayerOf(ctx.state);
  ctx.setLayerAfterResponse(layer);
  const block = cmd.blocks[0];
  if (!block || block.length === 0 || ctx.profile.classicOnly) return writeAnswer('OPN', 0);
  const pub = readOpnBlock(block);
  if (!pub) return writeAnswer('OPN', ST_INVPARM);
  const ksec = Uint8Array.from(randomBytes(KSEC_BYTES));
  let cryptogram: Uint8Array;
  try {
    cryptogram = wrapSessionKey(pub.modulus, pub.exponent, ksec);
  } catch {
    return writeAnswer('OPN', ST_INVPARM);
  }
  ctx.state.session.secure = { ksec } satisfies SimSecureSession;
  return writeAnswer('OPN', 0, [writeOpnAnswer(cryptogram)]);
}
