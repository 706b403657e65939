/**
 * Wallet card data (seed 000, "Card-data layout"): the JSON object `card_number`, `card_cvv`, `card_holder_name`,
 * `card_expiration_date`, encrypted whole with RSA 2048 `RSA/ECB/PKCS1Padding` and sent in Base64. The public key
 * is the Base64 of its DER SubjectPublicKeyInfo (docs/acquirer.md, "Wallet QR codes"). Node's crypto refuses
 * PKCS#1 v1.5 decryption (CVE-2023-46809), so the decrypting side (the sandbox host) opens the block raw and reads
 * the padding itself (RFC 8017 §7.2.2), with one error for every bad block.
 */
import {
  constants,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  privateDecrypt,
  publicEncrypt,
  type KeyObject,
} from 'node:crypto';
import { OmniposError } from '../core/index.js';

/** The plain card-data layout, every field a string. */
export interface WalletCardData {
  card_number: string;
  card_cvv: string;
  card_holder_name: string;
  /** Four characters, month then year (e.g. `1230`). */
  card_expiration_date: string;
}

export const WALLET_RSA_BITS = 2048;
const FIELDS = ['card_number', 'card_cvv', 'card_holder_name', 'card_expiration_date'] as const;
const BASE64_RE = /^[A-Za-z0-9+/]+={0,2}$/;

function invalid(message: string, context: Record<string, unknown> = {}): never {
  throw new OmniposError('CODEC_INVALID_INPUT', message, { what: 'card_data', ...context });
}

/** The wallet public key from the Base64 of its DER SubjectPublicKeyInfo; RSA 2048 only. */
export function walletPublicKey(base64Der: string): KeyObject {
  if (typeof base64Der !== 'string' || !BASE64_RE.test(base64Der.replace(/\s+/g, '')))
    invalid('public_key: expected Base64 text');
  let key: KeyObject;
  try {
    key = createPublicKey({ key: Buffer.from(base64Der, 'base64'), format: 'der', type: 'spki' });
  } catch {
    invalid('public_key: not a DER SubjectPublicKeyInfo');
  }
  const bits = key.asymmetricKeyDetails?.modulusLength;
  if (key.asymmetricKeyType !== 'rsa' || bits !== WALLET_RSA_BITS) {
    invalid(`public_key: expected an RSA ${WALLET_RSA_BITS}-bit key`, { type: key.asymmetricKeyType, bits });
  }
  return key;
}

/** Checks the shape of card data (four string fields, nothing else required); never echoes the values. */
export function checkCardData(value: unknown): WalletCardData {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) invalid('card data: expected a JSON object');
  const record = value as Record<string, unknown>;
  for (const f of FIELDS) {
    if (typeof record[f] !== 'string') invalid(`card data: ${f} must be a string`, { field: f });
  }
  if ((record.card_expiration_date as string).length !== 4) {
    invalid('card data: card_expiration_date must have four characters', { field: 'card_expiration_date' });
  }
  return {
    card_number: record.card_number as string,
    card_cvv: record.card_cvv as string,
    card_holder_name: record.card_holder_name as string,
    card_expiration_date: record.card_expiration_date as string,
  };
}

/** Encrypts card data for the wallet API: JSON, RSA PKCS#1 v1.5 under the wallet key, Base64. */
export function encryptCardData(publicKey: string | KeyObject, card: WalletCardData): string {
  const key = typeof publicKey === 'string' ? walletPublicKey(publicKey) : publicKey;
  const plain = Buffer.from(JSON.stringify(checkCardData(card)), 'utf8');
  return publicEncrypt({ key, padding: constants.RSA_PKCS1_PADDING }, plain).toString('base64');
}

/**
 * Decrypts `card_data` with the wallet's private key (PEM, PKCS#1 or PKCS#8) and checks its layout. Anything that
 * does not decrypt or parse is CODEC_INVALID_INPUT, with no card data in the message.
 */
export function decryptCardData(privateKeyPem: string, cardDataBase64: string): WalletCardData {
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: privateKeyPem, format: 'pem' });
  } catch {
    throw new OmniposError('CRYPTO_INVALID_KEY', 'wallet private key: not an RSA private key in PEM', {});
  }
  if (key.asymmetricKeyType !== 'rsa')
    throw new OmniposError('CRYPTO_INVALID_KEY', 'wallet private key: not an RSA private key in PEM', {});
  const text = typeof cardDataBase64 === 'string' ? cardDataBase64.replace(/\s+/g, '') : '';
  if (!BASE64_RE.test(text)) invalid('card_data: expected Base64 text');
  const cipher = Buffer.from(text, 'base64');
  const size = Math.ceil((key.asymmetricKeyDetails?.modulusLength ?? 0) / 8);
  if (cipher.length !== size)
    invalid(`card_data: expected ${size} bytes of ciphertext, got ${cipher.length}`, { length: cipher.length });
  const plain = unpadPkcs1(cipher, key);
  if (!plain) invalid('card_data: does not decrypt under the wallet key');
  let parsed: unknown;
  try {
    parsed = JSON.parse(plain.toString('utf8'));
  } catch {
    invalid('card_data: the plaintext is not JSON');
  }
  return checkCardData(parsed);
}

/** The message of a PKCS#1 v1.5 encryption block (00 02, at least 8 nonzero bytes, 00), or undefined. */
function unpadPkcs1(cipher: Buffer, key: KeyObject): Buffer | undefined {
  let block: Buffer;
  try {
    block = privateDecrypt({ key, padding: constants.RSA_NO_PADDING }, cipher);
  } catch {
    return undefined;
  }
  if (block[0] !== 0 || block[1] !== 2) return undefined;
  const zero = block.indexOf(0, 2);
  return zero < 10 ? undefined : block.subarray(zero + 1);
}

/** A fresh wallet key pair, as the sandbox host publishes it: Base64 DER SPKI public key, PKCS#8 PEM private key. */
export function generateWalletKeyPair(): { publicKey: string; privateKeyPem: string } {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: WALLET_RSA_BITS });
  return {
    publicKey: publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
    privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
  };
}
