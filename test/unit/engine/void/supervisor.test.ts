import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  SupervisorGate,
  hashSupervisorPassword,
  isSupervisorHash,
  verifySupervisorPassword,
} from '../../../../src/engine/void/supervisor.js';

const b64 = (hex: string): string => Buffer.from(hex, 'hex').toString('base64');

describe('supervisor password (salted scrypt) and token', () => {
  it('verifies against the scrypt test vectors of RFC 7914 §12 (published), so N, r, p, salt and length reach scrypt as stored', () => {
    // RFC 7914 section 12: scrypt(P="password", S="NaCl", N=1024, r=8, p=16, dkLen=64)
    const v2 =
      'fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640';
    const stored = `scrypt$1024$8$16$${Buffer.from('NaCl').toString('base64')}$${b64(v2)}`;
    expect(verifySupervisorPassword('password', stored)).toBe(true);
    expect(verifySupervisorPassword('Password', stored)).toBe(false);
    expect(verifySupervisorPassword('password', stored.replace('$16$', '$8$'))).toBe(false);
    // RFC 7914 section 12: scrypt(P="pleaseletmein", S="SodiumChloride", N=16384, r=8, p=1, dkLen=64)
    const v3 =
      '7023bdcb3afd7348461c06cd81fd38ebfda8fbba904f8e3ea9b543f6545da1f2d5432955613f0fcf62d49705242a9af9e61e85dc0d651e40dfcf017b45575887';
    expect(
      verifySupervisorPassword(
        'pleaseletmein',
        `scrypt$16384$8$1$${Buffer.from('SodiumChloride').toString('base64')}$${b64(v3)}`,
      ),
    ).toBe(true);
  });

  it('the stored form carries no password, a fresh salt each time, and the default cost', () => {
    const a = hashSupervisorPassword('2468');
    const b = hashSupervisorPassword('2468');
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('2468');
    expect(isSupervisorHash(a)).toBe(true);
    expect(verifySupervisorPassword('2468', a)).toBe(true);
    expect(() => hashSupervisorPassword('123')).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    for (const bad of ['', '2468', 'scrypt$16384$8$1$$', 'scrypt$99999999$8$1$AAAA$AAAA', `${a}x!`])
      expect(verifySupervisorPassword('2468', bad)).toBe(false);
  });

  it('property: a password verifies against its own hash and no other password does (1000 runs)', () => {
    const seed = Date.now();
    console.log(`supervisor hash property seed ${seed}`);
    fc.assert(
      fc.property(fc.string({ minLength: 4, maxLength: 40 }), fc.string({ minLength: 4, maxLength: 40 }), (p, q) => {
        const stored = hashSupervisorPassword(p, undefined, 16);
        expect(verifySupervisorPassword(p, stored)).toBe(true);
        if (q !== p) expect(verifySupervisorPassword(q, stored)).toBe(false);
      }),
      { numRuns: 1000, seed },
    );
  });

  it('the gate: the supervisor token or password pass; anything else is SUPERVISOR_REQUIRED; no password set is SUPERVISOR_NOT_CONFIGURED', () => {
    const token = 's'.repeat(43);
    let hash: string | undefined = hashSupervisorPassword('9753', undefined, 1024);
    const gate = new SupervisorGate({ token, passwordHash: () => hash });
    expect(gate.authorize({ token })).toBe('supervisor-token');
    expect(gate.authorize({ password: '9753' })).toBe('supervisor-password');
    for (const c of [{}, { token: '' }, { token: 'x'.repeat(43) }, { password: '1111' }, { token: `${token}x` }]) {
      expect(() => gate.authorize(c)).toThrow(expect.objectContaining({ code: 'SUPERVISOR_REQUIRED' }));
    }
    hash = undefined;
    expect(() => gate.authorize({ password: '9753' })).toThrow(
      expect.objectContaining({ code: 'SUPERVISOR_NOT_CONFIGURED' }),
    );
    expect(() => new SupervisorGate({ token: 'short', passwordHash: () => undefined })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
  });

  it('five wrong credentials in a row close the gate for a minute, even to the right ones; a success resets the count', () => {
    const token = 't'.repeat(43);
    let now = 1_000_000;
    const hash = hashSupervisorPassword('9753', undefined, 1024);
    const gate = new SupervisorGate({ token, passwordHash: () => hash, now: () => now });
    const wrong = (): unknown => gate.authorize({ password: '0000' });
    for (let i = 0; i < 4; i++)
      expect(wrong).toThrow(expect.objectContaining({ message: 'the supervisor password is not valid' }));
    expect(gate.authorize({ token })).toBe('supervisor-token'); // resets
    for (let i = 0; i < 5; i++) expect(wrong).toThrow(expect.objectContaining({ code: 'SUPERVISOR_REQUIRED' }));
    expect(() => gate.authorize({ token })).toThrow(
      expect.objectContaining({ code: 'SUPERVISOR_REQUIRED', message: expect.stringContaining('try again in 60 s') }),
    );
    expect(() => gate.authorize({ password: '9753' })).toThrow(
      expect.objectContaining({ message: expect.stringContaining('too many') }),
    );
    now += 60_000;
    expect(gate.authorize({ password: '9753' })).toBe('supervisor-password');
  });
});
