import { describe, expect, it } from 'vitest';
import { SettableClock } from './clock.ts';
import { TokenService } from './tokens.ts';

const SECRET = 'token-test-secret-token-test-secret-0123456789';
const SUB = '0b7c6a8e-2f1d-4c3b-9a8e-7d6c5b4a3f21';
const SID = '5f0e3c1a-8b2d-4e6f-9a1b-2c3d4e5f6a7b';

describe('TokenService', () => {
  it('a token is checked against the clock on every use: valid until its expiry, then expired', async () => {
    const clock = new SettableClock();
    clock.set(new Date('2026-11-23T10:00:00Z'));
    const tokens = new TokenService(SECRET, 60, clock);
    const token = await tokens.sign({ sub: SUB, sid: SID, tv: 3 });
    expect(await tokens.verify(token)).toEqual({ sub: SUB, sid: SID, tv: 3 });
    expect(await tokens.verify(token)).toEqual({ sub: SUB, sid: SID, tv: 3 });
    clock.set(new Date('2026-11-23T10:00:59Z'));
    expect(await tokens.verify(token)).toEqual({ sub: SUB, sid: SID, tv: 3 });
    clock.set(new Date('2026-11-23T10:01:00Z'));
    expect(await tokens.verify(token)).toBe('expired');
    expect(await tokens.verify(token)).toBe('expired');
  });

  it('a token changed after it was verified, or signed with another secret, is refused', async () => {
    const clock = new SettableClock();
    const tokens = new TokenService(SECRET, 3600, clock);
    const token = await tokens.sign({ sub: SUB, sid: SID, tv: 0 });
    expect(await tokens.verify(token)).toEqual({ sub: SUB, sid: SID, tv: 0 });
    const [h, p, s] = token.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p ?? '', 'base64url').toString()), tv: 9 })).toString('base64url')}.${s}`;
    expect(await tokens.verify(forged)).toBe('invalid');
    const other = new TokenService(`${SECRET}-other`, 3600, clock);
    expect(await other.verify(token)).toBe('invalid');
  });

  it('a token without a session id (signed before sessions existed) is refused', async () => {
    const clock = new SettableClock();
    const tokens = new TokenService(SECRET, 3600, clock);
    const now = Math.floor(clock.now().getTime() / 1000);
    const { SignJWT } = await import('jose');
    const legacy = await new SignJWT({ tv: 0 })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(SUB)
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(new TextEncoder().encode(SECRET));
    expect(await tokens.verify(legacy)).toBe('invalid');
  });
});
