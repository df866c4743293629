import { describe, expect, it } from 'vitest';
import { meResponse } from '@harvest/shared/schemas/user';
import { responseSerializerCompiler } from './response-serializer.ts';

const route = { schema: meResponse, method: 'GET', url: '/api/user/me', httpStatus: '200' } as const;
const me = {
  user: {
    _id: '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed',
    id: '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed',
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    phone: null,
    isAdmin: false,
    role: null,
    fourEyes: false,
    isBlocked: false,
    depositAddress: '0x1111111111111111111111111111111111111111',
    withdrawalWallet: null,
    invitationCode: 'ABCDEFGH',
    twoFactorEnabled: false,
    locale: 'en' as const,
    withdrawalLock: { status: 'off', endsAt: null, required: false },
    withdrawalsFrozen: false,
    cycleReminders: false,
    createdAt: '2026-11-24T10:00:00.000Z',
  },
  platform: { timeZone: 'UTC', demoDeposits: true },
};

describe('compiled response serializers', () => {
  for (const checked of [false, true]) {
    it(`write only what the contract declares (${checked ? 'checked' : 'production'})`, () => {
      const serialize = responseSerializerCompiler(checked)(route);
      const leaky = { ...me, user: { ...me.user, passwordHash: '$argon2id$secret', tokenVersion: 3 } };
      const out = serialize(leaky);
      expect(out).not.toContain('argon2');
      expect(out).not.toContain('tokenVersion');
      expect(JSON.parse(out)).toEqual(me);
    });
  }

  it('checked: an answer that breaks the contract is refused, not sent', () => {
    const serialize = responseSerializerCompiler(true)(route);
    expect(() => serialize({ ...me, user: { ...me.user, isAdmin: 'yes' } })).toThrow();
  });
});
