/**
 * Pure cryptographic codecs: DUKPT (TDES per X9.24-1:2009, AES per X9.24-3:2017), PIN blocks (ISO 9564-1),
 * data and PIN encryption under DUKPT keys, wallet card data (RSA), check digits, PAN masking and hashing, KCVs.
 * No I/O, no clock, no globals. Every bad input is an OmniposError (CODEC_INVALID_INPUT, CRYPTO_INVALID_KEY,
 * PINBLOCK_INVALID).
 */
export { toHex, toBytes, xor } from './bytes.js';
export { desEcb, tdesEcb, aesEcb } from './ciphers.js';
export { parseKsn, formatKsn, withCounter, nextCounter, countOnes, isValidCounter } from './ksn.js';
export {
  deriveIpek,
  deriveTransactionKey,
  pinVariant,
  macVariant,
  dataVariant,
  pinKey,
  dataKey,
  macKey,
  deriveTdesKeys,
} from './dukpt-tdes.js';
export {
  encryptData,
  decryptData,
  stripZeroPadding,
  encryptPinBlock,
  decryptPinBlock,
  retailMac,
} from './data-cipher.js';
export { encodePinBlock, decodePinBlock, panField, type PinBlockFormat } from './pinblock.js';
export { panField4, decipherFormat4, encryptPin, decryptPin } from './pinblock-format4.js';
export {
  encryptCardData,
  decryptCardData,
  checkCardData,
  walletPublicKey,
  generateWalletKeyPair,
  WALLET_RSA_BITS,
  type WalletCardData,
} from './card-data.js';
export {
  luhnCheckDigit,
  isLuhnValid,
  cpfCheckDigits,
  isValidCpf,
  cnpjCheckDigits,
  isValidCnpj,
  isValidDocument,
} from './check-digits.js';
export { maskPan, panHash } from './pan.js';
export { kcv } from './kcv.js';
export { aesCmac } from './cmac.js';
export {
  parseAesKsn,
  deriveAesInitialKey,
  deriveAesTransactionKey,
  deriveAesWorkingKey,
  deriveAesKeys,
  aesDerivationData,
  aesBdkTypeOf,
  aesKeyTypeBytes,
  checkAesWorkingKeyType,
  AES_DUKPT_KEY_TYPES,
  AES_BDK_TYPES,
  AES_KEY_TYPES,
  type AesKeyType,
  type AesBdkType,
  type AesKeyUsage,
  type AesDukptKeys,
} from './dukpt-aes.js';
export { dukptEncryptData, dukptDecryptData } from './dukpt-data.js';
