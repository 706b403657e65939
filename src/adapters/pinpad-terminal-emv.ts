import { encodeTlv } from '../emv/index.js';
import type { TableRecord } from '../initialization/index.js';

/**
 * EMV Book 4 (v4.3) Annex A1, Terminal Type (9F35, n2): the first digit says who operates the
 * terminal (1 financial institution, 2 merchant, 3 cardholder), the second its environment:
 * 1/2/3 attended (online only / offline with online capability / offline only), 4/5/6 unattended
 * (the same three). A kiosk is operated by the merchant and never approves offline (docs/pinpad.md: floor
 * limits 0, GOX with no offline approval): 4, unattended online only. So the counter's 22 becomes 24,
 * not 25 — 25 would tell the card the terminal could approve offline, which it never does.
 */
const UNATTENDED_ONLINE_ONLY = '4';
/** The operator digit when the tables carry no terminal type: 2, the merchant. */
const MERCHANT = '2';

/**
 * EMV Book 4 (v4.3) Annex A2, Terminal Capabilities (9F33, b3): byte 2 is the CVM capability —
 * b8 plaintext PIN for ICC verification, b7 enciphered PIN online, b6 signature (paper),
 * b5 enciphered PIN offline, b4 no CVM required. A kiosk has no one to check a signature, so b6 is
 * cleared; b4 is set in its place, so that a card whose list goes signature → no CVM (1E 03, 1F 03)
 * ends in "no CVM required" rather than "CVM failed" (the counter's E0F0C8 has no b4: at a counter
 * the signature is that fallback). Online PIN (b7) stays whatever the records say.
 */
const SIGNATURE_PAPER = 0x20;
const NO_CVM_REQUIRED = 0x08;

/** The unattended terminal type for an attended one (Book 4 A1): the operator kept, the environment unattended online only. */
export function unattendedTerminalType(attended: string | undefined): string {
  const op = attended && /^[123]\d$/.test(attended) ? attended[0]! : MERCHANT;
  return `${op}${UNATTENDED_ONLINE_ONLY}`;
}

/** Terminal capabilities without the signature CVM (Book 4 A2, byte 2: b6 cleared, b4 set); undefined for a value that is not 3 bytes of hex. */
export function withoutSignature(capabilities: string | undefined): string | undefined {
  if (!capabilities || !/^[0-9A-Fa-f]{6}$/.test(capabilities)) return undefined;
  const b = Buffer.from(capabilities, 'hex');
  b[1] = (b[1]! & ~SIGNATURE_PAPER) | NO_CVM_REQUIRED;
  return b.toString('hex').toUpperCase();
}

/**
 * The kiosk's terminal data for SPE_EMVDATA (GCX, GOX): 9F35 and 9F33 derived from the attended
 * values the network's AID records carry (T1_TRMTYP, T1_TRMCAPAB; the first AID record of
 * `acquirer`, the sandbox's all agree), as hex TLV. With no record, the terminal type alone.
 */
export function unattendedTerminalData(records: readonly TableRecord[], acquirer: string): string {
  const r = records.find((x) => x.kind === 'aid' && x.acquirer === acquirer) ?? records.find((x) => x.kind === 'aid');
  const caps = withoutSignature(r?.fields.T1_TRMCAPAB);
  const tlv = encodeTlv([
    { tag: '9F35', value: unattendedTerminalType(r?.fields.T1_TRMTYP) },
    ...(caps ? [{ tag: '9F33', value: caps }] : []),
  ]);
  return Buffer.from(tlv).toString('hex').toUpperCase();
}
