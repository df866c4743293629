import { z } from 'zod';
import { isCommonPassword } from './lib/passwords.ts';
import { randomSecretProblem } from './lib/secret-strength.ts';
import { parseXpub } from './modules/deposit-addresses/derive.ts';

const bool = z
  .enum(['1', '0', 'true', 'false', 'on', 'off', ''])
  .optional()
  .transform((v) => v === '1' || v === 'true' || v === 'on');

const DEFAULT_USDC = '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359,0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174';
export const DEMO_DEPOSIT_ADDRESS = '0x000000000000000000000000000000000000dEaD';
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be an EVM address (0x + 40 hex)');

/**
 * A signing secret someone did not just type: its character-frequency (Shannon) estimate is at
 * least 90 bits with 8 or more distinct characters, and it is not one piece repeated. A random
 * 32-character hex string (128 bits) passes; `aaaa...` or `passwordpassword...` does not.
 */
export function isHighEntropySecret(secret: string): boolean {
  const counts = new Map<string, number>();
  for (const c of secret) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bitsPerChar = 0;
  for (const n of counts.values()) bitsPerChar -= (n / secret.length) * Math.log2(n / secret.length);
  const repeated = /^(.+?)\1+$/s.test(secret);
  return counts.size >= 8 && bitsPerChar * secret.length >= 90 && !repeated;
}

/** Every setting the server reads, validated once at boot (README lists them with defaults). */
export const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default('0.0.0.0'),
    DATA_DIR: z.string().default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
    JWT_SECRET: z
      .string()
      .min(32, 'must be at least 32 characters')
      .refine(
        isHighEntropySecret,
        'is too predictable (repeated or too few distinct characters): use a random value such as `openssl rand -base64 48`',
      )
      .optional()
      .or(z.literal('').transform(() => undefined)),
    /**
     * The secret JWT_SECRET replaced: tokens it signed stay valid until they expire, and secrets sealed
     * with it (authenticator seeds) are re-sealed with JWT_SECRET at start. Remove it one token lifetime later.
     */
    JWT_SECRET_PREVIOUS: z
      .string()
      .min(32, 'must be at least 32 characters')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    /**
     * The secret that will replace JWT_SECRET, verify-only: tokens it signs are accepted and seeds it sealed
     * open, but nothing is signed with it. The first step of a rolling rotation (docs/OPERATIONS.md).
     */
    JWT_SECRET_NEXT: z
      .string()
      .min(32, 'must be at least 32 characters')
      .refine(isHighEntropySecret, 'is too predictable (repeated or too few distinct characters)')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    /** Signs backups (npm run backup) and is checked by npm run restore; kept by the operator, apart from the backups. */
    BACKUP_KEY: z
      .string()
      .min(32, 'must be at least 32 characters')
      .refine(isHighEntropySecret, 'is too predictable (repeated or too few distinct characters)')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    JWT_TTL_SECONDS: z.coerce
      .number()
      .int()
      .min(60)
      .max(30 * 24 * 3600)
      .default(12 * 3600),
    ADMIN_EMAIL: z
      .string()
      .email()
      .optional()
      .or(z.literal('').transform(() => undefined)),
    ADMIN_PASSWORD: z
      .string()
      .min(8, 'must be at least 8 characters')
      .refine((p) => !isCommonPassword(p), 'is a common password: choose another')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    MAIL_FROM: z.string().default('Harvest Farm <no-reply@harvest.farm>'),
    SUPPORT_EMAIL: z.string().default('support@harvest.farm'),
    /** How often the mail-outbox job looks for e-mails to send. */
    MAIL_OUTBOX_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(5_000),
    /** How often the cycle-reminder job looks for cycles that became ready to complete. */
    CYCLE_REMINDER_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
    /** Longest wait between two delivery attempts of one e-mail (the backoff doubles from 30 s up to this). */
    MAIL_RETRY_MAX_MS: z.coerce.number().int().min(1_000).max(86_400_000).default(3_600_000),
    /**
     * Block explorer the screens and payout e-mails link hashes and addresses to (`<url>/tx/<hash>`,
     * `<url>/address/<address>`); empty: no links (a private test chain has no explorer).
     */
    EXPLORER_URL: z
      .union([z.literal(''), z.string().regex(/^https?:\/\/[^\s/]+(\/[^\s]*)?$/, 'must be an http(s) URL')])
      .default('https://polygonscan.com')
      .transform((u) => (u === '' ? null : u.replace(/\/+$/, ''))),
    PLATFORM_TIMEZONE: z
      .string()
      .default('UTC')
      .refine((tz) => {
        try {
          new Intl.DateTimeFormat('en-US', { timeZone: tz });
          return true;
        } catch {
          return false;
        }
      }, 'must be an IANA time zone such as UTC or Asia/Singapore'),
    TEST_CLOCK: bool,
    RATE_LIMITS: z.enum(['on', 'off']).default('on'),
    /** Every answer also checked against its Zod schema (lib/response-serializer.ts); default: on outside production. */
    CHECK_RESPONSES: z.enum(['on', 'off']).optional(),
    TRUST_PROXY: z.string().default(''),
    REDIS_URL: z
      .string()
      .optional()
      .or(z.literal('').transform(() => undefined)),
    ADMIN_REQUIRE_2FA: z.enum(['0', '1']).optional(),
    /** The site's address as people open it: e-mailed links (confirm an address, "this wasn't me") point here. */
    PUBLIC_URL: z
      .string()
      .regex(/^https?:\/\/[^\s/]+(\/[^\s]*)?$/, 'must be an http(s) URL')
      .transform((u) => u.replace(/\/+$/, ''))
      .optional()
      .or(z.literal('').transform(() => undefined)),
    /** Hours a new withdrawal address waits before it is usable, and a lock turned off before it ends. */
    WITHDRAWAL_ADDRESS_COOLDOWN_HOURS: z.coerce.number().int().min(1).max(720).default(24),
    /** `optional`: each investor may turn the address lock on; `required`: Withdraw All pays only to the book, for everyone. */
    WITHDRAWAL_ADDRESS_LOCK: z.enum(['optional', 'required']).default('optional'),
    /** Hours an investor's withdrawals are held after a security change (modules/withdrawal-limits/hold-triggers.ts). */
    SECURITY_HOLD_HOURS: z.coerce.number().int().min(1).max(720).default(24),
    /** `required`: only addresses proven by their wallet's signature can be added to the book. */
    WITHDRAWAL_ADDRESS_PROOF: z.enum(['optional', 'required']).default('optional'),
    WEB_DIST: z.string().optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    // Chain (deposits, payouts)
    CHAIN_RPC_URL: z
      .string()
      .url()
      .optional()
      .or(z.literal('').transform(() => undefined)),
    CHAIN_ID: z.coerce.number().int().positive().default(137),
    USDC_CONTRACTS: z
      .string()
      .default(DEFAULT_USDC)
      .transform((s) =>
        s
          .split(',')
          .map((a) => a.trim())
          .filter(Boolean),
      )
      .pipe(z.array(address).min(1)),
    DEPOSIT_ADDRESS: address.default(DEMO_DEPOSIT_ADDRESS),
    /** Extended public key of the HD node under which each investor gets a deposit address; wins over DEPOSIT_ADDRESS. */
    DEPOSIT_XPUB: z
      .string()
      .refine((x) => {
        try {
          parseXpub(x);
          return true;
        } catch {
          return false;
        }
      }, 'must be a BIP32 extended public key (xpub...), never a private key')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    PAYOUT_ADDRESS: address.optional().or(z.literal('').transform(() => undefined)),
    /** Where swept deposit funds go (the operator's cold wallet or multisig): counted as an asset; the sweep's target. */
    TREASURY_ADDRESS: address.optional().or(z.literal('').transform(() => undefined)),
    DEPOSIT_CONFIRMATIONS: z.coerce.number().int().min(0).max(10_000).default(30),
    /**
     * Hours a cancelled payout batch whose file was downloaded keeps its withdrawals in payment: the multisig may
     * still execute the file, and a payout found on chain in that time completes them. Only then can they be rejected.
     */
    BATCH_CANCEL_GRACE_HOURS: z.coerce.number().int().min(0).max(720).default(24),
    /** Hours between two proof-of-reserves snapshots taken by the server itself. */
    POR_INTERVAL_HOURS: z.coerce.number().int().min(1).max(720).default(24),
    /**
     * With DEPOSIT_XPUB: the first block the watcher reads on a new platform (the block you launch at), so an
     * address handed out before its first good pass has a start. Required in production; 0 elsewhere (a dev chain).
     */
    DEPOSIT_START_BLOCK: z.coerce
      .bigint()
      .min(0n)
      .optional()
      .or(z.literal('').transform(() => undefined)),
    DEPOSIT_CHECK_INTERVAL_MS: z.coerce.number().int().min(100).default(15_000),
    /** Time for a whole request (headers and body) to arrive; slower ones get 408 and are closed. */
    REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
    /** Open connections one client address may hold; 0 turns the cap off. Default: 100, or off behind a proxy (TRUST_PROXY). */
    MAX_CONNECTIONS_PER_IP: z.coerce.number().int().min(0).max(100_000).optional(),
    /** Prometheus metrics on their own listener; unset: off. */
    METRICS_PORT: z.coerce
      .number()
      .int()
      .min(0)
      .max(65535)
      .optional()
      .or(z.literal('').transform(() => undefined)),
    /** The metrics listener's address: loopback unless the scraper is on another machine. */
    METRICS_HOST: z.string().default('127.0.0.1'),
    /**
     * Overload: while the event loop is busy more than this share of the time (two quarter-second windows), the
     * polled reads (POLLED_READS) are answered 503 `overloaded` with Retry-After; 0 turns it off. Default: 0.75 on
     * PostgreSQL; off on the embedded PGlite, whose SQL runs on the event loop itself, so that its loop is busy with
     * the database's own work (decision 0096).
     */
    OVERLOAD_UTILIZATION: z.coerce.number().min(0).max(1).optional(),
    /** On SIGTERM/SIGINT: time for in-flight requests and jobs to finish before the process exits anyway (code 1). */
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
    /** A running Idempotency-Key whose request has not committed within this time died; a retry may take over. */
    IDEMPOTENCY_LEASE_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
    /** `on`: money decisions are proposals a second staff member approves (docs/SECURITY.md); `off` keeps the spec's one-person flows. */
    FOUR_EYES: z.enum(['on', 'off']).default('off'),
    /** With FOUR_EYES=on: an approval by hash of a withdrawal above this many USDC is a proposal. */
    FOUR_EYES_WITHDRAWAL_USDC: z.coerce.number().int().min(0).max(1_000_000_000).default(1_000),
  })
  .superRefine((env, ctx) => {
    const prod = env.NODE_ENV === 'production';
    if (env.JWT_SECRET_PREVIOUS && !env.JWT_SECRET)
      ctx.addIssue({
        code: 'custom',
        path: ['JWT_SECRET_PREVIOUS'],
        message: 'needs JWT_SECRET (the new secret) set too',
      });
    if (env.JWT_SECRET_PREVIOUS && env.JWT_SECRET_PREVIOUS === env.JWT_SECRET)
      ctx.addIssue({ code: 'custom', path: ['JWT_SECRET_PREVIOUS'], message: 'must differ from JWT_SECRET' });
    if (prod && env.TEST_CLOCK)
      ctx.addIssue({ code: 'custom', path: ['TEST_CLOCK'], message: 'must not be set when NODE_ENV=production' });
    if (prod && env.RATE_LIMITS === 'off')
      ctx.addIssue({ code: 'custom', path: ['RATE_LIMITS'], message: 'cannot be off when NODE_ENV=production' });
    if (env.JWT_SECRET_NEXT && env.JWT_SECRET_NEXT === env.JWT_SECRET)
      ctx.addIssue({ code: 'custom', path: ['JWT_SECRET_NEXT'], message: 'must differ from JWT_SECRET' });
    if (env.JWT_SECRET_NEXT && !env.JWT_SECRET)
      ctx.addIssue({
        code: 'custom',
        path: ['JWT_SECRET_NEXT'],
        message: 'needs JWT_SECRET (the current secret) set too',
      });
    if (prod && !env.JWT_SECRET)
      ctx.addIssue({ code: 'custom', path: ['JWT_SECRET'], message: 'is required when NODE_ENV=production' });
    // Production signs real sessions: a secret anyone could guess (a phrase, the documentation's example)
    // lets them forge any token, an administrator's with the second factor included.
    for (const key of ['JWT_SECRET', 'JWT_SECRET_NEXT', 'BACKUP_KEY'] as const) {
      const value = env[key];
      const problem = prod && value ? randomSecretProblem(value) : null;
      if (problem) ctx.addIssue({ code: 'custom', path: [key], message: problem });
    }
    // The demo default is a burn address: real money sent there is lost, so production must name its own.
    if (prod && !env.DEPOSIT_XPUB && env.DEPOSIT_ADDRESS.toLowerCase() === DEMO_DEPOSIT_ADDRESS.toLowerCase())
      ctx.addIssue({
        code: 'custom',
        path: ['DEPOSIT_ADDRESS'],
        message: "must be set to the platform's own address in production",
      });
    // Without a chain every deposit is 'demo' and an administrator credits it on the user's word.
    if (prod && !env.CHAIN_RPC_URL)
      ctx.addIssue({
        code: 'custom',
        path: ['CHAIN_RPC_URL'],
        message: 'is required when NODE_ENV=production (without it deposits are demo deposits credited by hand)',
      });
    if (prod && env.DEPOSIT_XPUB && env.DEPOSIT_START_BLOCK === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['DEPOSIT_START_BLOCK'],
        message:
          'is required with DEPOSIT_XPUB in production: the block number at which the platform starts taking deposits',
      });
    // Links in security e-mails must open the real site, not localhost.
    if (prod && !env.PUBLIC_URL)
      ctx.addIssue({
        code: 'custom',
        path: ['PUBLIC_URL'],
        message: 'is required when NODE_ENV=production (links in e-mails point to it)',
      });
    if (prod && env.CHAIN_RPC_URL && !env.PAYOUT_ADDRESS)
      ctx.addIssue({
        code: 'custom',
        path: ['PAYOUT_ADDRESS'],
        message: 'is required with CHAIN_RPC_URL in production',
      });
  })
  .transform((env) => ({
    ...env,
    isProduction: env.NODE_ENV === 'production',
    adminRequire2fa: env.ADMIN_REQUIRE_2FA ? env.ADMIN_REQUIRE_2FA === '1' : env.NODE_ENV === 'production',
    rateLimits: env.RATE_LIMITS === 'on',
    checkResponses: env.CHECK_RESPONSES ? env.CHECK_RESPONSES === 'on' : env.NODE_ENV !== 'production',
    maxConnectionsPerIp: env.MAX_CONNECTIONS_PER_IP ?? (env.TRUST_PROXY === '' ? 100 : 0),
    overloadUtilization: env.OVERLOAD_UTILIZATION ?? (env.DATABASE_URL ? 0.75 : 0),
    /** Null: the watcher starts at the chain's deep end on its first start (production without per-investor addresses). */
    depositStartBlock: env.DEPOSIT_START_BLOCK ?? (env.NODE_ENV === 'production' ? null : 0n),
    publicUrl: env.PUBLIC_URL ?? `http://localhost:${env.PORT}`,
    addressCooldownMs: env.WITHDRAWAL_ADDRESS_COOLDOWN_HOURS * 3600_000,
    addressLockRequired: env.WITHDRAWAL_ADDRESS_LOCK === 'required',
    batchCancelGraceMs: env.BATCH_CANCEL_GRACE_HOURS * 3600_000,
    fourEyes: env.FOUR_EYES === 'on',
    fourEyesWithdrawalMicro: BigInt(env.FOUR_EYES_WITHDRAWAL_USDC) * 1_000_000n,
  }));

export type Config = z.infer<typeof envSchema>;

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || 'env'}: ${i.message}`);
    throw new ConfigError(`Invalid environment:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
