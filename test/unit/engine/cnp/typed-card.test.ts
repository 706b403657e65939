import { describe, expect, it } from 'vitest';
import { OmniposError } from '../../../../src/core/index.js';
import { typedCardOf, type CardProduct, type TypedCardReader } from '../../../../src/engine/index.js';

/** The phone order's card: typed digits, and the brand from the cash register or the BIN lookup. */
const reader: TypedCardReader = {
  read: () =>
    Promise.resolve({
      number: '4111111111111111',
      maskedNumber: '411111******1111',
      expiry: '07/2031',
      securityCode: '918',
    }),
};

const product = (over: Partial<CardProduct> = {}): CardProduct => ({
  brand: 'Visa',
  type: 'credit',
  prepaid: false,
  foreign: false,
  corporate: false,
  supported: true,
  detail: 'Status 00',
  ...over,
});

function lookup(answer: CardProduct | Error) {
  const asked: string[] = [];
  return {
    asked,
    cardProduct: (bin: string) => {
      asked.push(bin);
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    },
  };
}

describe('typedCardOf', () => {
  it('the brand the cash register named: no lookup', async () => {
    const backend = lookup(product());
    await expect(typedCardOf(reader, backend, { holder: 'ANA SILVA', brand: 'Master' })).resolves.toEqual({
      number: '4111111111111111',
      maskedNumber: '411111******1111',
      expiry: '07/2031',
      securityCode: '918',
      holder: 'ANA SILVA',
      brand: 'Master',
    });
    expect(backend.asked).toEqual([]);
  });

  it('no brand: the BIN lookup of the first six digits tells it', async () => {
    const backend = lookup(product({ brand: 'Visa', type: 'multiple' }));
    expect((await typedCardOf(reader, backend, { holder: 'ANA' })).brand).toBe('Visa');
    expect(backend.asked).toEqual(['411111']);
  });

  it('a product the lookup does not support, or a debit-only card, is refused before sending', async () => {
    await expect(typedCardOf(reader, lookup(product({ supported: false })), { holder: 'ANA' })).rejects.toMatchObject({
      code: 'CNP_CARD_REFUSED',
    });
    await expect(typedCardOf(reader, lookup(product({ type: 'debit' })), { holder: 'ANA' })).rejects.toMatchObject({
      code: 'CNP_DEBIT_NEEDS_AUTHENTICATION',
    });
  });

  it('a backend without a BIN lookup needs the brand: INVALID_FIELD naming it', async () => {
    const none = lookup(new OmniposError('CNP_NOT_OFFERED', 'no BIN lookup'));
    await expect(typedCardOf(reader, none, { holder: 'ANA' })).rejects.toMatchObject({
      code: 'INVALID_FIELD',
      context: { field: 'brand' },
    });
  });
});

describe('typedCardOf when the BIN lookup fails', () => {
  it('refused or not answered: CNP_BIN_LOOKUP_FAILED, nothing sent', async () => {
    const down = lookup(new OmniposError('ACQUIRER_UNREACHABLE', 'connect ECONNREFUSED'));
    await expect(typedCardOf(reader, down, { holder: 'ANA' })).rejects.toMatchObject({
      code: 'CNP_BIN_LOOKUP_FAILED',
      context: { cause: 'ACQUIRER_UNREACHABLE' },
    });
  });
});
