import { describe, expect, it } from 'vitest';
import { roundTicks } from './ticks.ts';
import { usdc, usdcTick } from '../../../lib/format.ts';

describe('chart axes', () => {
  it('ticks at round values: 1, 2 or 5 x 10^n from 0 past the largest bar', () => {
    expect(roundTicks(260)).toEqual([0, 100, 200, 300]);
    expect(roundTicks(100)).toEqual([0, 50, 100]);
    expect(roundTicks(4, true)).toEqual([0, 1, 2, 3, 4]);
    expect(roundTicks(1, true)).toEqual([0, 1]);
    expect(roundTicks(0)).toEqual([0, 1]);
    expect(roundTicks(0.3)).toEqual([0, 0.1, 0.2, 0.3]);
    expect(roundTicks(1_234_567)).toEqual([0, 500_000, 1_000_000, 1_500_000]);
    for (const max of [3, 17, 99, 101, 999, 12_345, 0.07]) {
      const ticks = roundTicks(max);
      const step = ticks[1] ?? 0;
      const mantissa = step / 10 ** Math.floor(Math.log10(step));
      expect(
        [1, 2, 5].some((m) => Math.abs(mantissa - m) < 1e-9),
        `step ${step} for ${max}`,
      ).toBe(true);
      ticks.forEach((t, i) => expect(t).toBeCloseTo(i * step, 12));
      expect(ticks.at(-1)).toBeGreaterThanOrEqual(max);
    }
  });

  it('formats ticks like every amount: thousands separators, no micro-units, no -0', () => {
    expect(usdcTick(1_500_000)).toBe('1,500,000');
    expect(usdcTick(0.5)).toBe('0.5');
    expect(usdcTick(-0)).toBe('0');
    expect(usdc(-0.000001 + 0.000001)).toBe('0.00\u00a0USDC');
  });
});
