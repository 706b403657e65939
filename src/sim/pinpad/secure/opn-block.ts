/**
 * The secure OPN's block as the pinpad reads it (ABECS 2.20 §3.2.2): OPN_OPMODE N1 ("0"),
 * OPN_MODLEN N3 (bytes of KMOD, fixed "256"), OPN_MOD H512, OPN_EXPLEN N1, OPN_EXP H..6 (bytes
 * given by OPN_EXPLEN, §1.3 "H" lengths are halved). Anything else is ST_INVPARM (§6.4.1).
 */
export interface OpnKey {
  readonly modulus: Uint8Array;
  readonly exponent: Uint8Array;
}

const HEX = /^[0-9A-Fa-f]*$/;

export function readOpnBlock(block: Uint8Array): OpnKey | undefined {
  const t = Buffer.from(block).toString('latin1');
  if (!/^0\d{3}/.test(t)) return undefined;
  const modLen = Number(t.slice(1, 4));
  if (modLen !== 256) return undefined;
  let at = 4;
  const mod = t.slice(at, at + 2 * modLen);
  at += 2 * modLen;
  if (mod.length !== 2 * modLen || !HEX.test(mod)) return undefined;
  const expLenText = t.slice(at, at + 1);
  if (!/^\d$/.test(expLenText)) return undefined;
  const expLen = Number(expLenText);
  at += 1;
  if (expLen < 1 || expLen > 3) return undefined;
  const exp = t.slice(at, at + 2 * expLen);
  at += 2 * expLen;
  if (exp.length !== 2 * expLen || !HEX.test(exp) || at !== t.length) return undefined;
  return { modulus: Uint8Array.from(Buffer.from(mod, 'hex')), exponent: Uint8Array.from(Buffer.from(exp, 'hex')) };
}

/** The answer block of a current pinpad: OPN_CRKSLEN N3 then OPN_CRKSEC in hex. */
export function writeOpnAnswer(cryptogram: Uint8Array): Uint8Array {
  return Uint8Array.from(
    Buffer.from(
      String(cryptogram.length).padStart(3, '0') + Buffer.from(cryptogram).toString('hex').toUpperCase(),
      'latin1',
    ),
  );
}
