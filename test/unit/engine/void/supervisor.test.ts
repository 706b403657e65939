import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Lockout } from '../../../../src/engine/void/lockout.js';
import {
  SupervisorGate,
  assertSupervisorPassword,
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
    const a = hashSupervisorPassword('caixa2468');
    const b = hashSupervisorPassword('caixa2468');
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('caixa2468');
    expect(isSupervisorHash(a)).toBe(true);
    expect(verifySupervisorPassword('caixa2468', a)).toBe(true);
    for (const bad of ['', 'caixa2468', 'scrypt$16384$8$1$$', 'scrypt$99999999$8$1$AAAA$AAAA', `${a}x!`])
      expect(verifySupervisorPassword('caixa2468', bad)).toBe(false);
  });

  it('property: a password verifies against its own hash and no other password does (1000 runs)', () => {
    const seed = Date.now();
    console.log(`supervisor hash property seed ${seed}`);
    fc.assert(
      fc.property(fc.string({ minLength: 6, maxLength: 40 }), fc.string({ minLength: 4, maxLength: 40 }), (raw, q) => {
        const p = `a1${raw}`;
        const stored = hashSupervisorPassword(p, undefined, 16);
        expect(verifySupervisorPassword(p, stored)).toBe(true);
        if (q !== p) expect(verifySupervisorPassword(q, stored)).toBe(false);
      }),
      { numRuns: 1000, seed },
    );
  });

  it('the gate: the supervisor token or password pass; anything else is SUPERVISOR_REQUIRED; no password set is SUPERVISOR_NOT_CONFIGURED', () => {
    const token = 's'.repeat(43);
    let hash: string | undefined = hashSupervisorPassword('sup9753x', undefined, 1024);
    const gate = new SupervisorGate({ token, passwordHash: () => hash });
    expect(gate.authorize({ token })).toBe('supervisor-token');
    expect(gate.authorize({ password: 'sup9753x' })).toBe('supervisor-password');
    for (const c of [{}, { token: '' }, { token: 'x'.repeat(43) }, { password: '1111' }, { token: `${token}x` }]) {
      expect(() => gate.authorize(c)).toThrow(expect.objectContaining({ code: 'SUPERVISOR_REQUIRED' }));
    }
    hash = undefined;
    expect(() => gate.authorize({ password: 'sup9753x' })).toThrow(
      expect.objectContaining({ code: 'SUPERVISOR_NOT_CONFIGURED' }),
    );
    expect(() => new SupervisorGate({ token: 'short', passwordHash: () => undefined })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
  });

  it('wrong guesses lock out the client that sent them, never another; the right token is never refused', () => {
    const token = 't'.repeat(43);
    const now = 1_000_000;
    const hash = hashSupervisorPassword('sup9753x', undefined, 1024);
    const lockouts: Lockout[] = [];
    const gate = new SupervisorGate({
      token,
      passwordHash: () => hash,
      now: () => now,
      onLockout: (l) => lockouts.push(l),
    });
    const wrong = (client: string): unknown => gate.authorize({ password: '0000', client });
    for (let i = 0; i < 4; i++)
      expect(() => wrong('kiosk@10.0.0.9')).toThrow(
        expect.objectContaining({ message: 'the supervisor password is not valid' }),
      );
    expect(lockouts).toEqual([]);
    expect(() => wrong('kiosk@10.0.0.9')).toThrow(expect.objectContaining({ code: 'SUPERVISOR_REQUIRED' }));
    expect(lockouts).toEqual([{ client: 'password:kiosk@10.0.0.9', count: 1, until: now + 60_000 }]);
    // The guesser is locked out, even with the right password …
    expect(() => gate.authorize({ password: 'sup9753x', client: 'kiosk@10.0.0.9' })).toThrow(
      expect.objectContaining({ message: expect.stringContaining('try again in 60 s') }),
    );
    // … but the supervisor elsewhere is not, and the right token passes from anywhere.
    expect(gate.authorize({ password: 'sup9753x', client: 'register@127.0.0.1' })).toBe('supervisor-password');
    expect(gate.authorize({ token, client: 'kiosk@10.0.0.9' })).toBe('supervisor-token');
    expect(gate.authorize({ token })).toBe('supervisor-token');
  });

  it('each lockout in a row doubles, up to an hour; a right credential starts the count again', () => {
    const token = 'u'.repeat(43);
    let now = 0;
    const hash = hashSupervisorPassword('sup9753x', undefined, 1024);
    const lockouts: Lockout[] = [];
    const gate = new SupervisorGate({
      token,
      passwordHash: () => hash,
      now: () => now,
      onLockout: (l) => lockouts.push(l),
    });
    const five = (): void => {
      for (let i = 0; i < 5; i++) expect(() => gate.authorize({ password: 'wrong000', client: 'c' })).toThrow();
    };
    const lengths: number[] = [];
    for (let round = 0; round < 8; round++) {
      five();
      const l = lockouts.at(-1)!;
      lengths.push(l.until - now);
      now = l.until;
    }
    expect(lengths).toEqual([60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000, 3_600_000, 3_600_000]);
    expect(gate.authorize({ password: 'sup9753x', client: 'c' })).toBe('supervisor-password');
    five();
    expect(lockouts.at(-1)).toMatchObject({ count: 1, until: now + 60_000 });
  });

  it('a password a supervisor may set: 8 to 128 characters, a letter and a digit (PCI DSS 8.3.6)', () => {
    for (const bad of ['2468', '1234567', '12345678', 'abcdefgh', 'a1'.repeat(65)])
      expect(() => assertSupervisorPassword(bad)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    for (const good of ['caixa246', 'Senha do supervisor 1', 'ç1234567'])
      expect(() => assertSupervisorPassword(good)).not.toThrow();
  });
});
