import { MAX_AMOUNT_MICRO, MICRO_PER_USDC } from './constants.ts';

/** Decimal text of a USDC amount: digits, optionally a point and at most 6 decimals. */
const USDC_TEXT = /^(\d{1,10})(?:\.(\d{1,6}))?$/;

/**
 * Parses a USDC amount given as a JSON number or decimal text into integer micro-USDC.
 * A JSON number is read from its shortest decimal text (what the client typed), so 0.1 is
 * exactly 100000 micro; exponents, more than 6 decimals, negatives and non-finite values
 * are refused (null). No floating-point arithmetic touches the amount.
 */
export function parseUsdc(value: unknown): bigint | null {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    text = String(value);
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    return null;
  }
  const m = USDC_TEXT.exec(text);
  if (!m) return null;
  const whole = BigInt(m[1] ?? '0');
  const frac = BigInt((m[2] ?? '').padEnd(6, '0'));
  const micro = whole * MICRO_PER_USDC + frac;
  if (micro > MAX_AMOUNT_MICRO) return null;
  return micro;
}

/**
 * Whether `value` is a well-formed amount (any number of decimals) above the largest the API accepts
 * (MAX_AMOUNT_MICRO), so a form can say "too large" rather than "invalid" (parseUsdc refuses both).
 */
export function exceedsMaxAmount(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value) && value > Number(MAX_AMOUNT_MICRO / MICRO_PER_USDC);
  if (typeof value !== 'string') return false;
  const m = /^(\d+)(?:\.(\d*))?$/.exec(value.trim());
  if (!m) return false;
  const whole = BigInt(m[1] ?? '0') * MICRO_PER_USDC;
  return whole > MAX_AMOUNT_MICRO || (whole === MAX_AMOUNT_MICRO && /[1-9]/.test(m[2] ?? ''));
}

/** Exact decimal text of a micro-USDC amount, without trailing zeros ("12.5", "-3"). */
export function microToText(micro: bigint): string {
  const neg = micro < 0n;
  const abs = neg ? -micro : micro;
  const whole = abs / MICRO_PER_USDC;
  const frac = (abs % MICRO_PER_USDC).toString().padStart(6, '0').replace(/0+$/, '');
  return `${neg ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`;
}

/** A micro-USDC amount as the JSON number the API speaks (the double nearest its decimal text). */
export function microToUsdc(micro: bigint): number {
  return Number(microToText(micro));
}

/** Rounds down to the micro-unit: the remainder stays with the platform (docs/DOMAIN.md, Money). */
export function percentOf(micro: bigint, percent: bigint): bigint {
  return (micro * percent) / 100n;
}

/** Daily rates are stored as percent x 10^4 (1.5% = 15000) so they stay integers. */
export const RATE_SCALE = 10_000n;

export function rateToScaled(ratePercent: number): bigint | null {
  const m = /^(\d{1,3})(?:\.(\d{1,4}))?$/.exec(String(ratePercent));
  if (!m) return null;
  return BigInt(m[1] ?? '0') * RATE_SCALE + BigInt((m[2] ?? '').padEnd(4, '0'));
}

export function scaledToRate(scaled: bigint | number): number {
  const s = BigInt(scaled);
  const frac = (s % RATE_SCALE).toString().padStart(4, '0').replace(/0+$/, '');
  return Number(`${s / RATE_SCALE}${frac ? `.${frac}` : ''}`);
}

/** Gross cycle earning = amount x dailyRate / 100, rounded down to the micro-unit. */
export function cycleEarning(amountMicro: bigint, rateScaled: bigint): bigint {
  return (amountMicro * rateScaled) / (100n * RATE_SCALE);
}

/** Splits a gross earning withdrawal into the 15% fee and the 85% net (fee rounded down). */
export function withdrawalFee(grossMicro: bigint, feePercent: bigint): { fee: bigint; net: bigint } {
  const fee = percentOf(grossMicro, feePercent);
  return { fee, net: grossMicro - fee };
}

/**
 * Screen formatting from the API's number: thousands separators, at least `decimals` decimals and at most
 * `maxDecimals` (6 shows every micro-USDC, so nothing is rounded away); never "-0.00".
 */
export function formatUsdc(value: number, decimals = 2, maxDecimals = decimals): string {
  const max = Math.max(decimals, maxDecimals);
  // Beyond plain notation (never an amount here) the locale formatter does it.
  if (!Number.isFinite(value) || Math.abs(value) >= 1e21) return formatUsdcIntl(value, decimals, max);
  // Rounds the shortest decimal form half away from zero, as Intl.NumberFormat does (1.275 -> 1.28), without
  // Intl: its first use costs tens of milliseconds on a slow phone, on every screen of amounts.
  const [whole = '0', frac = ''] = plainDecimal(Math.abs(value)).split('.');
  let units = BigInt(whole + frac.slice(0, max).padEnd(max, '0'));
  if ((frac[max] ?? '0') >= '5') units += 1n;
  const digits = units.toString().padStart(max + 1, '0');
  let fraction = digits.slice(digits.length - max);
  while (fraction.length > decimals && fraction.endsWith('0')) fraction = fraction.slice(0, -1);
  const grouped = digits.slice(0, digits.length - max).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${value < 0 && units > 0n ? '-' : ''}${grouped}${fraction ? `.${fraction}` : ''}`;
}

/** The shortest decimal text of a non-negative number below 1e21, without an exponent (2.5e-7 -> 0.00000025). */
function plainDecimal(abs: number): string {
  const text = String(abs);
  const m = /^(\d)(?:\.(\d+))?e-(\d+)$/.exec(text);
  return m ? `0.${'0'.repeat(Number(m[3]) - 1)}${m[1]}${m[2] ?? ''}` : text;
}

/** The same through Intl (the reference the test compares with, and the fallback for huge values). */
export function formatUsdcIntl(value: number, decimals = 2, maxDecimals = decimals): string {
  const text = value.toLocaleString('en-US', {
    minimumFractionDigits: decimals,
    maximumFractionDigits: Math.max(decimals, maxDecimals),
  });
  return /^-[0.,]*$/.test(text) ? text.slice(1) : text;
}

/** An amount as screens show it, for texts the server sends (toasts): "1,234.50", exact to the micro-USDC. */
export const microToDisplay = (micro: bigint): string => formatUsdc(microToUsdc(micro), 2, 6);
