import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, totpAt, verifyTotp } from './totp.ts';

// RFC 6238 appendix B test vectors (SHA1, secret "12345678901234567890"), last 6 digits.
const SECRET = base32Encode(Buffer.from('12345678901234567890'));
describe('TOTP (RFC 6238)', () => {
  it('matches the RFC test vectors', () => {
    const vectors: [number, string][] = [
      [59, '287082'],
      [1111111109, '081804'],
      [1111111111, '050471'],
      [1234567890, '005924'],
      [2000000000, '279037'],
    ];
    for (const [t, code] of vectors) expect(totpAt(SECRET, Math.floor(t / 30))).toBe(code);
    expect(base32Decode(SECRET).toString()).toBe('12345678901234567890');
  });

  it('accepts the current and neighbouring step once, never a replay', () => {
    const at = new Date(1234567890 * 1000);
    const step = verifyTotp(SECRET, '005924', at, null);
    expect(step).toBe(Math.floor(1234567890 / 30));
    expect(verifyTotp(SECRET, '005924', at, step)).toBeNull();
    expect(verifyTotp(SECRET, '000000', at, null)).toBeNull();
    expect(verifyTotp(SECRET, 'abcdef', at, null)).toBeNull();
  });
});
