import { HASH_SHOWN_CHARS, HASH_SHOWN_CHARS_ADMIN_DEPOSITS, REFERRAL_RATES_PERCENT } from '@harvest/shared/constants';
import { formatUsdc } from '@harvest/shared/money';
import { directionOf, intlLocale } from '@harvest/shared/i18n';
import { currentLocale } from './i18n.tsx';
import { platformTimeZone } from './time-zone.ts';

/*
 * The one place screens turn amounts, counts, hashes and times into text (spec sections 2 and 9).
 * Amounts are exact: at least 2 decimals and up to the micro-USDC, so a summary and a card never
 * disagree by rounding (1.275 stays 1.275); the balance and total investment show 4 (spec section 2).
 * Numbers and dates are written the way the language on screen writes them (Intl; docs/decisions/0075): English
 * keeps the spec's "1,234.50" through the fast formatter, the others use Intl with the same decimals.
 */

/** The Intl tag of the language on screen (Arabic with Western digits). */
const locale = () => intlLocale(currentLocale());

/**
 * A figure that reads left to right whatever the page's direction (an amount with its unit, a hash, an ISO date):
 * in a right-to-left page it is isolated (Unicode LRI ... PDI), so "-5,000.00 USDC" keeps its sign and unit in
 * place instead of being reordered around the Arabic text.
 */
export const ltr = (text: string) => (directionOf(currentLocale()) === 'rtl' ? `\u2066${text}\u2069` : text);

/**
 * Text someone typed (a name, a tier) set inside other text: in a right-to-left page it is isolated and takes the
 * direction of its first letter (Unicode FSI ... PDI), so "Gold (1,000.00 USDC)" reads as written.
 */
export const bidiName = (text: string) => (directionOf(currentLocale()) === 'rtl' ? `\u2068${text}\u2069` : text);

/** A number with at least `min` and at most `max` decimals, in the language on screen. */
function decimal(v: number, min: number, max: number): string {
  if (currentLocale() === 'en') return formatUsdc(v, min, max);
  const text = v.toLocaleString(locale(), { minimumFractionDigits: min, maximumFractionDigits: Math.max(min, max) });
  return /^-[0.,\s]*$/.test(text) ? text.slice(1) : text;
}

/** Minimum decimals per figure: the spec's 4 for balance and total investment, 2 elsewhere. */
export const DECIMALS = { amount: 2, balance: 4 } as const;
export type AmountKind = keyof typeof DECIMALS;

/** "1,234.5678" without the unit. */
export const usdcNumber = (v: number, kind: AmountKind = 'amount') => ltr(decimal(v, DECIMALS[kind], 6));

/** "1,234.50 USDC": the unit is joined by a no-break space so it never wraps alone. */
export const usdc = (v: number, kind: AmountKind = 'amount') => ltr(`${decimal(v, DECIMALS[kind], 6)}\u00a0USDC`);

/** A tier with its amount: "Gold (1,000.00 USDC)". */
export const tierWithAmount = (tier: string, amount: number) => bidiName(`${tier} (${usdc(amount)})`);

/**
 * The dashboard's balance and total investment: exactly 4 decimals (spec section 2), cut rather than rounded so a
 * card never shows money that is not there; the exact figure is usdc(v, 'balance'), the card's title.
 */
export const usdcFour = (v: number) => ltr(`${decimal(Math.trunc(Math.round(v * 1e6) / 100) / 1e4, 4, 4)}\u00a0USDC`);

/** A chart axis tick in USDC: the same formatter as every amount, without padding ("1,000", "2.5", never "-0"). */
export const usdcTick = (v: number) => decimal(v, 0, 6);

export const count = (n: number) => n.toLocaleString(locale());

/** A percentage as the language writes it ("2.5%", "2,5 %", "%2,5"); `value` is in percent (2.5 is 2.5 %). */
export const percent = (value: number, decimals: { min?: number; max?: number } = {}) =>
  ltr(
    (value / 100).toLocaleString(locale(), {
      style: 'percent',
      minimumFractionDigits: decimals.min ?? 0,
      maximumFractionDigits: decimals.max ?? 4,
    }),
  );

/** The reward rate of a referral level (1 to 3): "10%". */
export const referralRate = (level: number) => percent(Number(REFERRAL_RATES_PERCENT[level - 1] ?? 0));

/** Hash lengths shown (spec section 9): 20 characters, 30 in the administrator's deposit views. */
export const HASH_CHARS = { default: HASH_SHOWN_CHARS, adminDeposits: HASH_SHOWN_CHARS_ADMIN_DEPOSITS } as const;
export const shortHash = (hash: string | null, where: keyof typeof HASH_CHARS = 'default') => {
  if (!hash) return '—';
  const n = HASH_CHARS[where];
  return ltr(hash.length > n ? `${hash.slice(0, n)}...` : hash);
};

export const fullName = (u: { firstName: string; lastName: string }) => `${u.firstName} ${u.lastName}`.trim();

/*
 * Times are shown in the platform's time zone (PLATFORM_TIMEZONE, sent with the session), with its name,
 * so an investor abroad and the administrator read the same clock the cycle rules use.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(name: string, opts: Intl.DateTimeFormatOptions, tag = locale()) {
  const timeZone = platformTimeZone();
  const key = `${name} ${timeZone ?? ''} ${tag}`;
  let f = formatters.get(key);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat(tag, { ...opts, timeZone });
    } catch {
      f = new Intl.DateTimeFormat(tag, opts);
    }
    formatters.set(key, f);
  }
  return f;
}

const at = (iso: string | Date) => (typeof iso === 'string' ? new Date(iso) : iso);

/** "Nov 23, 2026, 2:05 PM UTC". */
export const dateTime = (iso: string | Date | null) =>
  iso === null
    ? '—'
    : formatter('dateTime', {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
        timeZoneName: 'short',
      }).format(at(iso));

/** "Nov 23, 2026" (a join date: the day in the platform's calendar). */
export const date = (iso: string | Date | null) =>
  iso === null ? '—' : formatter('date', { year: 'numeric', month: 'short', day: 'numeric' }).format(at(iso));

/** "Mon 2:05 PM UTC": the absolute end shown beside a countdown. */
export const weekdayTime = (iso: string | Date) =>
  formatter('weekdayTime', { weekday: 'short', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' }).format(
    at(iso),
  );

/** A platform day ("2026-11-23", analytics) as "Nov 23". */
export const dayLabel = (day: string) => {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1)).toLocaleDateString(locale(), {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });
};

/** Whether an instant falls on a Saturday or Sunday of the platform's calendar (cycles and investing are Mon-Fri). */
export const isPlatformWeekend = (at: number | Date) => {
  // In English whatever the language on screen: it is compared with English names, not shown.
  const day = formatter('weekday', { weekday: 'short' }, 'en-US').format(typeof at === 'number' ? new Date(at) : at);
  return day === 'Sat' || day === 'Sun';
};
