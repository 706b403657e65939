import { SANDBOX_KEYS } from '../../tables/sandbox-keys.js';
import { testCardByPan, type TestCard } from '../../tables/test-cards.js';
import { decodePinBlock, decryptData, decryptPinBlock, deriveTdesKeys, stripZeroPadding } from '../crypto/index.js';
import { HOST_TIME_ZONE, localTime } from '../core/index.js';
import { invalidFields } from './http-kit.js';

/** What the host learns from the card node: the PAN (kept in memory only) and the test card, if any. */
export interface CardRead {
  pan: string;
  expiry?: string;
  card?: TestCard;
}

/**
 * Clear text of DUKPT-CBC card data. The pinpad may encrypt track 2 as ASCII or as packed
 * nibbles (`D` as separator, `F` as filler); both are read.
 */
function clearText(bytes: Buffer): string {
  const ascii = bytes.toString('latin1');
  if (/^[;]?[0-9]+([=D][0-9]*)?[?]?$/.test(ascii)) return ascii.replace(/^;/, '').replace(/\?$/, '');
  return bytes.toString('hex').toUpperCase().replace(/F+$/, '');
}

/**
 * The host holds one BDK per registered KSI (docs/acquirer.md, "Key serial numbers": KSN = FFFFF +
 * KSI + device id + counter); a KSN naming another KSI cannot be decrypted there.
 */
function checkKsi(path: string, ksn: string): void {
  const prefix = `FFFFF${SANDBOX_KEYS.ksi}`;
  if (!ksn.toUpperCase().startsWith(prefix)) {
    throw invalidFields([`${path}: KSI ${ksn.slice(5, 10)} is not registered (the KSN must start ${prefix})`]);
  }
}

function decrypt(node: string, cipherHex: string, ksn: string, iv: string): string {
  try {
    const key = deriveTdesKeys(SANDBOX_KEYS.bdk, ksn).dataKeyRequest;
    return clearText(stripZeroPadding(decryptData(key, cipherHex, { iv })));
  } catch {
    throw invalidFields([`${node}: does not decrypt under the KSN and IV of EncryptedCardData (Dukpt3DesCBC)`]);
  }
}

/**
 * Decrypts `TrackTwoData` (or `CardNumber` for typed entry) with the KSN and IV of
 * `EncryptedCardData` under the sandbox BDK. `path` names the card node in errors.
 */
export function readCard(path: string, card: Record<string, unknown>): CardRead {
  const enc = (card.EncryptedCardData ?? {}) as Record<string, unknown>;
  const iv = typeof enc.InitializationVector === 'string' ? enc.InitializationVector : '';
  const typed = card.InputMode === 'Typed';
  const problems: string[] = [];
  const type = enc.EncryptionType;
  if (type !== 'Dukpt3DesCBC' && type !== 4)
    problems.push(`${path}.EncryptedCardData.EncryptionType: must be Dukpt3DesCBC`);
  if (!/^[0-9A-Fa-f]{16}$/.test(iv))
    problems.push(`${path}.EncryptedCardData.InitializationVector: is required (16 hex digits)`);
  const data = typed ? card.CardNumber : card.TrackTwoData;
  const ksn = typed ? enc.CardNumberKSN : enc.TrackTwoDataKSN;
  const dataName = typed ? 'CardNumber' : 'TrackTwoData';
  if (typeof data !== 'string' || !/^([0-9A-Fa-f]{16})+$/.test(data))
    problems.push(`${path}.${dataName}: is required (encrypted, hex, whole blocks)`);
  if (typeof ksn !== 'string' || !/^[0-9A-Fa-f]{20}$/.test(ksn)) {
    problems.push(
      `${path}.EncryptedCardData.${typed ? 'CardNumberKSN' : 'TrackTwoDataKSN'}: is required (20 hex digits)`,
    );
  }
  if (problems.length > 0) throw invalidFields(problems);
  checkKsi(`${path}.EncryptedCardData.${typed ? 'CardNumberKSN' : 'TrackTwoDataKSN'}`, ksn as string);
  const clear = decrypt(`${path}.${dataName}`, data as string, ksn as string, iv);
  const [panPart, rest] = clear.split(/[=D]/);
  const pan = panPart ?? '';
  if (!/^\d{12,19}$/.test(pan)) throw invalidFields([`${path}.${dataName}: the clear text holds no PAN`]);
  const expiry = rest && /^\d{4}/.test(rest) ? rest.slice(0, 4) : undefined;
  const known = testCardByPan(pan);
  return { pan, ...(expiry ? { expiry } : {}), ...(known ? { card: known } : {}) };
}

/**
 * Verifies a DUKPT PIN block (ISO format 0) against the test card's PIN. A PAN outside the
 * test cards has no declared PIN: any well-formed block passes.
 */
export function pinMatches(path: string, pinBlock: Record<string, unknown>, read: CardRead): boolean {
  const block = pinBlock.EncryptedPinBlock;
  const ksn = pinBlock.KsnIdentification;
  const problems: string[] = [];
  if (typeof block !== 'string' || !/^[0-9A-Fa-f]{16}$/.test(block))
    problems.push(`${path}.EncryptedPinBlock: is required (16 hex digits)`);
  if (typeof ksn !== 'string' || !/^[0-9A-Fa-f]{20}$/.test(ksn))
    problems.push(`${path}.KsnIdentification: is required (20 hex digits)`);
  if (problems.length > 0) throw invalidFields(problems);
  checkKsi(`${path}.KsnIdentification`, ksn as string);
  let pin: string;
  try {
    const key = deriveTdesKeys(SANDBOX_KEYS.bdk, ksn as string).pinKey;
    pin = decodePinBlock(decryptPinBlock(key, block as string), { format: 0, pan: read.pan });
  } catch {
    return false;
  }
  return read.card ? pin === read.card.pin : true;
}

/** `MM/yyyy` → `YYMM`, or undefined. */
export function typedExpiry(value: unknown): string | undefined {
  const m = typeof value === 'string' ? /^(0[1-9]|1[0-2])\/\d{2}(\d{2})$/.exec(value) : null;
  return m ? `${m[2]}${m[1]}` : undefined;
}

/** A card is valid through the last day of its expiry month (host time). */
export function isExpired(yymm: string | undefined, now: Date): boolean {
  if (!yymm || !/^\d{4}$/.test(yymm)) return false;
  const t = localTime(now, HOST_TIME_ZONE);
  const year = 2000 + Number(yymm.slice(0, 2));
  const month = Number(yymm.slice(2));
  return year < t.year || (year === t.year && month < t.month);
}
