import { describe, expect, it } from 'vitest';
import { cycleEarning, microToText, microToUsdc, parseUsdc, rateToScaled, withdrawalFee } from './money.ts';

describe('parseUsdc', () => {
  it('reads decimal text exactly', () => {
    expect(parseUsdc(0.1)).toBe(100000n);
    expect(parseUsdc('12.5')).toBe(12_500_000n);
    expect(parseUsdc(0.000001)).toBe(1n);
    expect(parseUsdc('1000')).toBe(1_000_000_000n);
  });
  it('refuses what is not a USDC amount', () => {
    for (const bad of [
      -1,
      1e-7,
      Number.NaN,
      Infinity,
      Number('1e309'),
      '1e3',
      '0.0000001',
      'abc',
      '',
      null,
      {},
      '-5',
      1e10 + 1,
    ]) {
      expect(parseUsdc(bad)).toBeNull();
    }
  });
});

describe('formatting and percentages', () => {
  it('round-trips micro-USDC through text and numbers', () => {
    expect(microToText(12_500_000n)).toBe('12.5');
    expect(microToText(1n)).toBe('0.000001');
    expect(microToUsdc(123_456_789n)).toBe(123.456789);
  });
  it('rounds fees and earnings down to the micro-unit', () => {
    expect(withdrawalFee(1_000_001n, 15n)).toEqual({ fee: 150_000n, net: 850_001n });
    expect(cycleEarning(100_000_000n, rateToScaled(1.5) ?? 0n)).toBe(1_500_000n);
    expect(cycleEarning(333_333n, rateToScaled(1.25) ?? 0n)).toBe(4_166n);
  });
});
