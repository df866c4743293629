/** Business constants from the product spec (docs/product-spec.md section 9) and docs/DOMAIN.md. */
export const USDC_DECIMALS = 6;
export const MICRO_PER_USDC = 1_000_000n;
export const WITHDRAWAL_FEE_PERCENT = 15n;
export const REFERRAL_RATES_PERCENT = [10n, 3n, 1n] as const;
export const CYCLE_HOURS = 8;
export const CYCLE_MS = CYCLE_HOURS * 60 * 60 * 1000;
export const WITHDRAWAL_COOLDOWN_HOURS = 48;
export const WITHDRAWAL_COOLDOWN_MS = WITHDRAWAL_COOLDOWN_HOURS * 60 * 60 * 1000;
export const MIN_DEPOSIT_MICRO = 500_000n;
export const MIN_PASSWORD_LENGTH = 6;
export const RECENT_DEPOSITS = 5;
export const ANALYTICS_PERIODS = [7, 14, 30, 90] as const;
export const DEFAULT_ANALYTICS_PERIOD = 30;
export const POLL_INVESTMENTS_MS = 2_000;
export const POLL_DEPOSITS_MS = 30_000;
export const POLL_ADMIN_WITHDRAWALS_MS = 30_000;
/** The users list (and the Security panel it feeds): a freeze or block made elsewhere shows without a reload. */
export const POLL_ADMIN_USERS_MS = 30_000;
/**
 * The investor reads the web polls (GET route patterns). When the server falls behind it answers these, and only
 * these, 503 `overloaded` with Retry-After before it would answer them late; the web's polls back off and catch up
 * (docs/decisions/0096). Anything else, every request that moves money among them, is always served.
 */
export const POLLED_READS: readonly string[] = [
  '/api/user/dashboard',
  '/api/withdrawal/my-withdrawals',
  '/api/user/deposit-history',
  '/api/withdrawal/failed-deposits',
];
export const TOAST_MS = 3_000;
export const HASH_SHOWN_CHARS = 20;
export const HASH_SHOWN_CHARS_ADMIN_DEPOSITS = 30;
export const DEFAULT_COUNTRY_DIAL = '+1';
export const EMAIL_CODE_TTL_MS = 10 * 60 * 1000;
export const EMAIL_CODE_MAX_TRIES = 5;
export const EMAIL_CODE_RESEND_MS = 60 * 1000;
/** After EMAIL_CODE_MAX_TRIES wrong codes within this time, the address gets and accepts no code for as long again. */
export const EMAIL_CODE_LOCK_MS = 15 * 60 * 1000;
/** Codes an address may hold at once: a resend keeps earlier unexpired codes valid, up to this many. */
export const EMAIL_CODE_MAX_LIVE = 3;
export const LAZY_CHUNK_TIMEOUT_MS = 120_000;
/** Largest amount the API accepts (1 billion USDC) keeps micro-USDC well inside 2^53. */
export const MAX_AMOUNT_MICRO = 1_000_000_000n * MICRO_PER_USDC;
/**
 * The longest text each input takes: the server's schemas refuse more (with a "must be at most" text) and
 * the forms set these as the inputs' maxLength, so the two never disagree.
 */
export const MAX_LENGTH = {
  name: 100,
  email: 254,
  invitationCode: 64,
  /** The phone as sent: dial code, a space and the number. */
  phone: 30,
  /** The number typed beside the country code (PHONE in schemas/auth.ts: 4 to 20 characters). */
  phoneNumber: 20,
  password: 200,
  verificationCode: 12,
  /** An authenticator or recovery code at sign-in and in the two-factor settings. */
  authCode: 32,
  search: 200,
  withdrawalNotes: 1000,
  tierName: 100,
  /** The name an investor gives a saved withdrawal address ("My Ledger"). */
  addressLabel: 40,
  /** The name an investor or staff member gives a passkey ("My phone"). */
  passkeyName: 40,
} as const;
export const DEFAULT_PAGE_SIZE = 25;
/** The longest period one statement of account covers, in calendar days (both ends included). */
export const STATEMENT_MAX_DAYS = 366;
export const MAX_PAGE_SIZE = 100;

/** Saved withdrawal addresses an investor may hold at once (each one added sends a confirmation e-mail). */
export const MAX_WITHDRAWAL_ADDRESSES = 20;
/** How long an e-mailed confirmation link (a new address, the lock turned off) can be used. */
export const CONFIRM_LINK_TTL_MS = 60 * 60 * 1000;
/** How long a "this wasn't me" link in an alert can be used. */
export const NOT_ME_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** Profile shows this many of the newest security events of the account. */
export const SECURITY_EVENTS_SHOWN = 50;
