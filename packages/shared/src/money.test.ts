import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { depositAmountError, updateUserBalanceBody } from './schemas/deposits.ts';
import { TEXT } from './texts.ts';
import {
  exceedsMaxAmount,
  microToDisplay,
  cycleEarning,
  formatUsdc,
  formatUsdcIntl,
  microToText,
  microToUsdc,
  parseUsdc,
  rateToScaled,
  withdrawalFee,
} from './money.ts';

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

describe('formatUsdc', () => {
  it('prints what Intl.NumberFormat (en-US) prints, without using it', () => {
    const values = [
      0,
      -0,
      1,
      -1,
      0.5,
      1.275,
      12.5,
      999.999999,
      1000,
      1234.5678,
      1_000_000.000001,
      123_456_789.123456,
      -1234.5,
      -0.001,
      -0.0000001,
      0.000001,
      0.0000005,
      0.0000015,
      2.5e-7,
      1e15,
      99_999_999_999.99,
      0.1 + 0.2,
    ];
    // And many random micro-USDC amounts of every size.
    let seed = 7;
    const rand = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 3000; i++)
      values.push((Math.round(rand() * 10 ** (1 + (i % 14))) / 10 ** (i % 7)) * (i % 5 ? 1 : -1));
    // One formatter per width, as formatUsdcIntl's options make it (toLocaleString builds one per call: seconds).
    const differ: string[] = [];
    for (const [min, max] of [
      [2, 2],
      [2, 6],
      [4, 6],
      [0, 0],
      [6, 6],
    ] as const) {
      const intl = new Intl.NumberFormat('en-US', { minimumFractionDigits: min, maximumFractionDigits: max });
      for (const v of values) {
        const text = intl.format(v);
        const expected = /^-[0.,]*$/.test(text) ? text.slice(1) : text;
        if (formatUsdc(v, min, max) !== expected) differ.push(`${v} ${min}-${max}: ${formatUsdc(v, min, max)}`);
      }
      expect(formatUsdc(values[9]!, min, max)).toBe(formatUsdcIntl(values[9]!, min, max));
    }
    expect(differ).toEqual([]);
    expect(formatUsdc(-0.001)).toBe('0.00');
    expect(formatUsdc(1234.5, 4, 6)).toBe('1,234.5000');
  });
});

describe('microToDisplay', () => {
  it('shows an amount the server sends in a text as the screens do: separators, 2 to 6 decimals, no -0', () => {
    expect(microToDisplay(1_234_500_000n)).toBe('1,234.50');
    expect(microToDisplay(1_275_000n)).toBe('1.275');
    expect(microToDisplay(1n)).toBe('0.000001');
    expect(microToDisplay(0n)).toBe('0.00');
  });
});

describe('amounts above the maximum', () => {
  it('are told apart from malformed ones', () => {
    for (const v of [
      '99999999999999999999',
      '1000000000000',
      '1000000000.000001',
      1e12,
      ' 2000000000 ',
      '1000000000.0000001',
    ])
      expect(exceedsMaxAmount(v), String(v)).toBe(true);
    for (const v of ['1000000000', '1000000000.000000', 1e9, '12.5', '1e12', '-5', 'abc', '', null, Infinity])
      expect(exceedsMaxAmount(v), String(v)).toBe(false);
  });

  it("say 'too large, with the limit' in the deposit and balance forms", () => {
    expect(depositAmountError('99999999999999999999')).toBe(TEXT.amountTooLarge);
    expect(depositAmountError('12.1234567')).toBe(TEXT.invalidDepositAmount);
    const balance = (newBalance: string) => z.safeParse(updateUserBalanceBody, { userId: 'u', newBalance });
    expect(balance('1000000000000').error?.issues[0]?.message).toBe(TEXT.amountTooLarge);
    expect(balance('-1').error?.issues[0]?.message).toBe(TEXT.validAmount);
    // A seventh decimal is named as such (a typo), a huge one with it is still too large.
    expect(balance('12.1234567').error?.issues[0]?.message).toBe(TEXT.amountTooPrecise);
    expect(balance('1000000000.0000001').error?.issues[0]?.message).toBe(TEXT.amountTooLarge);
    expect(balance('12.123456').success).toBe(true);
    expect(balance('1000000000').success).toBe(true);
  });
});
