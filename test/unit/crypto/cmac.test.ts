import { describe, expect, it } from 'vitest';
import { aesCmac, toHex } from '../../../src/crypto/index.js';

describe('AES-CMAC (RFC 4493 section 4 examples)', () => {
  const key = '2B7E151628AED2A6ABF7158809CF4F3C';
  it.each([
    ['example 1, empty message', '', 'BB1D6929E95937287FA37D129B756746'],
    ['example 2, 16 bytes', '6BC1BEE22E409F96E93D7E117393172A', '070A16B46B4D4144F79BDD9DD04A287C'],
    [
      'example 3, 40 bytes',
      '6BC1BEE22E409F96E93D7E117393172AAE2D8A571E03AC9C9EB76FAC45AF8E5130C81C46A35CE411',
      'DFA66747DE9AE63030CA32611497C827',
    ],
    [
      'example 4, 64 bytes',
      '6BC1BEE22E409F96E93D7E117393172AAE2D8A571E03AC9C9EB76FAC45AF8E5130C81C46A35CE411E5FBC1191A0A52EFF69F2445DF4F9B17AD2B417BE66C3710',
      '51F0BEBF7E3B9D92FC49741779363CFE',
    ],
  ])('%s', (_what, message, mac) => {
    expect(toHex(aesCmac(key, message))).toBe(mac);
  });
});
