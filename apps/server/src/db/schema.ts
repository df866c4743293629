import { sql } from 'drizzle-orm';
import type { StoredSaid } from '@harvest/shared/said';
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const money = (name: string) => bigint(name, { mode: 'bigint' });
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => ts('created_at').notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    /**
     * The mailbox the address delivers to (users.service#mailboxOf): one account per mailbox. NULL only for
     * accounts that shared a mailbox with an older one before that rule.
     */
    mailbox: text('mailbox'),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    phoneCountryCode: text('phone_country_code'),
    phoneNumber: text('phone_number'),
    passwordHash: text('password_hash').notNull(),
    withdrawalPasswordHash: text('withdrawal_password_hash').notNull(),
    isAdmin: boolean('is_admin').notNull().default(false),
    /** A staff member's one role (owner, finance, support, auditor: docs/SECURITY.md); null for investors. */
    role: text('role'),
    isBlocked: boolean('is_blocked').notNull().default(false),
    tokenVersion: integer('token_version').notNull().default(0),
    invitationCode: text('invitation_code'),
    referrerId: uuid('referrer_id'),
    withdrawalWallet: text('withdrawal_wallet'),
    totpSecret: text('totp_secret'),
    totpEnabled: boolean('totp_enabled').notNull().default(false),
    /** Last accepted TOTP time step: a code is accepted once (no replay within its window). */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    /** The language the person reads the app, their e-mails and statements in (packages/shared/src/i18n.ts). */
    locale: text('locale').notNull().default('en'),
    /** Withdraw All pays only to active addresses of the book; see withdrawalLockEndsAt. */
    withdrawalLock: boolean('withdrawal_lock').notNull().default(false),
    /** The lock was turned off (confirmed by e-mail): it holds until this time, then it is off. */
    withdrawalLockEndsAt: ts('withdrawal_lock_ends_at'),
    /** "This wasn't me" or an administrator froze withdrawals: Withdraw All is refused until an administrator lifts it. */
    withdrawalsFrozen: boolean('withdrawals_frozen').notNull().default(false),
    /** The investor asked (Profile) for an e-mail when a running cycle becomes ready to complete. */
    cycleReminders: boolean('cycle_reminders').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    uniqueIndex('users_mailbox_key').on(t.mailbox),
    uniqueIndex('users_invitation_code_key').on(t.invitationCode),
    index('users_referrer_idx').on(t.referrerId),
    index('users_created_at_idx').on(t.createdAt),
    /** The back-office users list pages in (created_at, id) order. */
    index('users_created_id_idx').on(t.createdAt, t.id),
    check('users_email_lower', sql`${t.email} = lower(${t.email})`),
    check('users_admin_not_blocked', sql`NOT (${t.isAdmin} AND ${t.isBlocked})`),
    check(
      'users_staff_role',
      sql`(${t.isAdmin} AND ${t.role} IN ('owner', 'finance', 'support', 'auditor')) OR (NOT ${t.isAdmin} AND ${t.role} IS NULL)`,
    ),
  ],
);

/** Signup e-mail codes: one live code per address, stored hashed. */
/**
 * Signup e-mail codes: one row per code sent (an address may hold up to 3 live codes, so a
 * resend never cancels a code already on its way). Only the code's HMAC is stored.
 */
export const emailCodes = pgTable(
  'email_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    email: text('email').notNull(),
    codeHash: text('code_hash').notNull(),
    expiresAt: ts('expires_at').notNull(),
    sentAt: ts('sent_at').notNull(),
  },
  (t) => [index('email_codes_email_idx').on(t.email, t.expiresAt)],
);

/**
 * Per e-mail address: when the last code was sent (one per minute) and the wrong codes tried in
 * the current 15-minute window; the fifth locks the address (no code sent or accepted) until
 * `locked_until`, resends or not.
 */
export const emailVerifications = pgTable('email_verifications', {
  email: text('email').primaryKey(),
  lastSentAt: ts('last_sent_at'),
  wrongTries: integer('wrong_tries').notNull().default(0),
  windowStart: ts('window_start'),
  lockedUntil: ts('locked_until'),
});

export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    codeHash: text('code_hash').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [index('recovery_codes_user_idx').on(t.userId)],
);

// ---------------------------------------------------------------- account security

/**
 * One row per sign-in; its id is the token's `sid`. Every authenticated request reads it by primary key
 * (with the user's row): a revoked session ends at its next request on every instance.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    createdAt: ts('created_at').notNull(),
    /** Moved forward at most once a minute (a conditional update), so polling does not write on every request. */
    lastSeenAt: ts('last_seen_at').notNull(),
    /** The token's expiry: after it the session is over whatever happens. */
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
    ip: text('ip'),
    /** A readable device from the user agent ("Chrome 140 on Linux"). */
    device: text('device').notNull(),
    /** HMAC of the browser's device id (or of its user agent and network): which device this was. */
    deviceKey: text('device_key').notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId, t.createdAt)],
);

/** The devices an account signed in from: a sign-in from another one sends the new-device e-mail. */
export const userDevices = pgTable(
  'user_devices',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    deviceKey: text('device_key').notNull(),
    firstSeenAt: ts('first_seen_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.deviceKey] })],
);

/**
 * The withdrawal address book: an address is usable once confirmed from the e-mailed link and once
 * `usable_at` (added + WITHDRAWAL_ADDRESS_COOLDOWN_HOURS) has passed. Removing one sets `removed_at` (the
 * back office still sees it).
 */
export const withdrawalAddresses = pgTable(
  'withdrawal_addresses',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    label: text('label').notNull(),
    /** Lower-case hex (as Withdraw All receives it); shown EIP-55 checksummed. */
    address: text('address').notNull(),
    createdAt: ts('created_at').notNull(),
    usableAt: ts('usable_at').notNull(),
    confirmedAt: ts('confirmed_at'),
    removedAt: ts('removed_at'),
    addedIp: text('added_ip'),
    addedDevice: text('added_device'),
    /** When its wallet signed our one-time message for it (EIP-191 or EIP-1271): no e-mailed confirmation needed. */
    provenAt: ts('proven_at'),
  },
  (t) => [
    index('withdrawal_addresses_user_idx').on(t.userId, t.createdAt),
    uniqueIndex('withdrawal_addresses_live_key')
      .on(t.userId, t.address)
      .where(sql`${t.removedAt} IS NULL`),
    check('withdrawal_addresses_lower', sql`${t.address} = lower(${t.address})`),
  ],
);

/**
 * The secrets of e-mailed links (confirm an address, confirm the lock off, "this wasn't me"): only their
 * SHA-256 is kept; each works once, until `expires_at`.
 */
export const accountLinks = pgTable(
  'account_links',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    kind: text('kind').notNull(),
    tokenHash: text('token_hash').notNull(),
    /** What the link is about: the address to confirm, the session or address reported. */
    targetId: uuid('target_id'),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [
    uniqueIndex('account_links_token_key').on(t.tokenHash),
    index('account_links_expires_idx').on(t.expiresAt),
    check(
      'account_links_kind_valid',
      sql`${t.kind} IN ('confirm_address', 'confirm_lock_off', 'not_me', 'staff_invite')`,
    ),
  ],
);

/**
 * The account's own security timeline (sign-ins, failed sign-ins, credential, address, session and lock
 * changes), shown to its owner in Profile. Administrators' actions stay in `audit_log` as well
 * (docs/decisions/0076-account-security-events.md).
 */
export const securityEvents = pgTable(
  'security_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    type: text('type').notNull(),
    ip: text('ip'),
    device: text('device'),
    detail: text('detail'),
    /** The detail's template and values when it has values (its English is `detail`). */
    detailSaid: jsonb('detail_said').$type<StoredSaid>(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('security_events_user_idx').on(t.userId, t.createdAt, t.id)],
);

/** An account's passkeys (WebAuthn credentials): the public key only; removing one deletes its row. */
export const passkeys = pgTable(
  'passkeys',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    /** The credential id, base64url (what an assertion names). */
    credentialId: text('credential_id').notNull(),
    /** The COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    /** The authenticator's signature counter, when it keeps one (a cloned key shows as a counter going back). */
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: jsonb('transports').$type<string[]>().notNull().default([]),
    name: text('name').notNull(),
    createdAt: ts('created_at').notNull(),
    lastUsedAt: ts('last_used_at'),
  },
  (t) => [uniqueIndex('passkeys_credential_key').on(t.credentialId), index('passkeys_user_idx').on(t.userId)],
);

/**
 * One-time challenges: a WebAuthn challenge (registration, passkey sign-in, a step-up bound to the hash of what it
 * confirms) or a wallet-proof nonce. Used by deleting the row, so each works once, until `expires_at`.
 */
export const challenges = pgTable(
  'challenges',
  {
    challenge: text('challenge').primaryKey(),
    /** Null for a passkey sign-in (nobody is signed in yet). */
    userId: uuid('user_id').references(() => users.id),
    purpose: text('purpose').notNull(),
    /** SHA-256 of the canonical form of what it confirms (step-up), or the address a wallet proves. */
    payloadHash: text('payload_hash').notNull().default(''),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('challenges_expires_idx').on(t.expiresAt), index('challenges_user_idx').on(t.userId)],
);

// ---------------------------------------------------------------- ledger

export const USER_ACCOUNT_KINDS = ['balance', 'rewards', 'earnings', 'invested', 'pending_withdrawal'] as const;
export const PLATFORM_ACCOUNT_KINDS = [
  'platform_deposits',
  'platform_payouts',
  'platform_fees',
  'platform_reward_expense',
  'platform_earning_expense',
  'platform_adjustments',
] as const;
export type UserAccountKind = (typeof USER_ACCOUNT_KINDS)[number];
export type PlatformAccountKind = (typeof PLATFORM_ACCOUNT_KINDS)[number];

export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id').references(() => users.id),
    kind: text('kind').notNull(),
    /** Cache of the sum of this account's entries, kept by the same transaction that writes them. */
    balance: money('balance')
      .notNull()
      .default(sql`0`),
  },
  (t) => [
    uniqueIndex('ledger_accounts_user_kind_key').on(t.userId, t.kind),
    uniqueIndex('ledger_accounts_platform_kind_key')
      .on(t.kind)
      .where(sql`${t.userId} IS NULL`),
    check('ledger_accounts_user_non_negative', sql`${t.userId} IS NULL OR ${t.balance} >= 0`),
    check('ledger_accounts_owner_matches_kind', sql`(${t.userId} IS NULL) = (${t.kind} LIKE 'platform\\_%')`),
  ],
);

export const ledgerTransactions = pgTable(
  'ledger_transactions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    /** The business row that caused it (deposit, investment, cycle earning, reward, withdrawal, adjustment). */
    refId: text('ref_id').notNull(),
    memo: text('memo'),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ledger_transactions_kind_ref_key').on(t.kind, t.refId),
    index('ledger_transactions_created_idx').on(t.createdAt),
  ],
);

export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    transactionId: bigint('transaction_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerTransactions.id),
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerAccounts.id),
    amount: money('amount').notNull(),
  },
  (t) => [
    index('ledger_entries_tx_idx').on(t.transactionId),
    index('ledger_entries_account_idx').on(t.accountId),
    check('ledger_entries_non_zero', sql`${t.amount} <> 0`),
  ],
);

// ---------------------------------------------------------------- deposits

export const deposits = pgTable(
  'deposits',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    amount: money('amount').notNull(),
    status: text('status').notNull().default('pending'),
    type: text('type').notNull(),
    txHash: text('tx_hash'),
    logIndex: integer('log_index'),
    fromAddress: text('from_address'),
    /** The investor's own deposit address the transfer went to (DEPOSIT_XPUB mode); null for shared-address claims. */
    toAddress: text('to_address'),
    /** Where the transfer was read (DEPOSIT_XPUB mode): a re-organisation shows as another hash at this number. */
    blockNumber: bigint('block_number', { mode: 'bigint' }),
    blockHash: text('block_hash'),
    confirmations: integer('confirmations').notNull().default(0),
    failureReason: text('failure_reason'),
    /** The reason's template and values when it has values (its English is `failure_reason`). */
    failureSaid: jsonb('failure_said').$type<StoredSaid>(),
    /** What kind of failure (the correction form offers the from-address for a wrong sender or a rejection). */
    failureKind: text('failure_kind'),
    /** The owner dismissed this failed deposit from the failed-deposits list; it stays in the history. */
    dismissedAt: ts('dismissed_at'),
    note: text('note'),
    checkAttempts: integer('check_attempts').notNull().default(0),
    nextCheckAt: ts('next_check_at'),
    createdAt: createdAt(),
    processedAt: ts('processed_at'),
    processedBy: uuid('processed_by'),
  },
  (t) => [
    /**
     * A transaction hash is claimed by at most one live (pending or confirmed) shared-address
     * deposit. Per-investor deposits (to_address set) are one per Transfer log: two transfers in
     * one transaction are two deposits, kept apart by deposits_tx_log_key.
     */
    uniqueIndex('deposits_live_tx_hash_key')
      .on(t.txHash)
      .where(sql`${t.status} <> 'failed' AND ${t.toAddress} IS NULL`),
    /** One on-chain transfer log credits at most once. */
    uniqueIndex('deposits_tx_log_key').on(t.txHash, t.logIndex),
    index('deposits_user_created_idx').on(t.userId, t.createdAt),
    index('deposits_status_created_idx').on(t.status, t.createdAt),
    index('deposits_created_idx').on(t.createdAt),
    /** The back-office deposit lists page by keyset in (created_at, id) order, all or one status. */
    index('deposits_created_id_idx').on(t.createdAt, t.id),
    index('deposits_status_created_id_idx').on(t.status, t.createdAt, t.id),
    /** The chain watcher's pending deposits (confirmations counted every pass). */
    index('deposits_watched_pending_idx')
      .on(t.blockNumber)
      .where(sql`${t.status} = 'pending' AND ${t.toAddress} IS NOT NULL`),
    /** Below-minimum transfers shown before their block was deep enough, whose block is checked once it is. */
    index('deposits_watched_unchecked_idx')
      .on(t.blockNumber)
      .where(sql`${t.status} = 'failed' AND ${t.toAddress} IS NOT NULL AND ${t.processedAt} IS NULL`),
    check('deposits_amount_positive', sql`${t.amount} > 0`),
    check('deposits_status_valid', sql`${t.status} IN ('pending','confirmed','failed')`),
    check('deposits_type_valid', sql`${t.type} IN ('demo','real','admin_credit')`),
    check(
      'deposits_failure_kind_valid',
      sql`${t.failureKind} IS NULL OR ${t.failureKind} IN ('reverted','not_found','wrong_token','wrong_recipient','wrong_sender','wrong_amount','hash_taken','rejected')`,
    ),
  ],
);

// ---------------------------------------------------------------- per-investor deposit addresses and the chain watcher

/** Investor number k (BIP32 child index under DEPOSIT_XPUB): handed out once, never reused. */
export const depositAddressSeq = pgSequence('deposit_address_seq', { startWith: 0, minValue: 0 });

export const depositAddresses = pgTable(
  'deposit_addresses',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id),
    /** Non-hardened child index under DEPOSIT_XPUB. */
    childIndex: bigint('child_index', { mode: 'number' }).notNull(),
    /** Lowercase 0x address. */
    address: text('address').notNull(),
    /** Transfers count from this block on: the watcher's next block when handed out, or DEPOSIT_START_BLOCK before its first pass (null: handed out by an older version; the watcher gives it DEPOSIT_START_BLOCK). */
    fromBlock: bigint('from_block', { mode: 'bigint' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('deposit_addresses_child_key').on(t.childIndex),
    uniqueIndex('deposit_addresses_address_key').on(t.address),
  ],
);

/** A chain follower's persisted cursor and lease (one row per watcher, e.g. 'deposits'). */
export const chainCursors = pgTable('chain_cursors', {
  name: text('name').primaryKey(),
  /** The last block read completely, and its hash when read. */
  blockNumber: bigint('block_number', { mode: 'bigint' }).notNull(),
  blockHash: text('block_hash').notNull(),
  /** The instance allowed to move the cursor until lease_until. */
  leaseOwner: text('lease_owner'),
  leaseUntil: ts('lease_until'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  /** The last pass that read the chain up to its target, and the chain's head it saw then (the admin panel's watcher line). */
  checkedAt: ts('checked_at'),
  headBlock: bigint('head_block', { mode: 'bigint' }),
});

/** Hashes of blocks the watcher read up to (range ends), to find the fork point after a re-organisation. */
export const chainCheckpoints = pgTable(
  'chain_checkpoints',
  {
    name: text('name').notNull(),
    blockNumber: bigint('block_number', { mode: 'bigint' }).notNull(),
    blockHash: text('block_hash').notNull(),
  },
  (t) => [primaryKey({ columns: [t.name, t.blockNumber] })],
);

/**
 * What the chain watcher could not decide by itself and an operator must look at: a re-organisation deeper
 * than the confirmations, a fork point not found, a credited transfer no longer on the chain.
 */
export const chainAlarms = pgTable('chain_alarms', {
  id: uuid('id').primaryKey().defaultRandom(),
  kind: text('kind').notNull(),
  detail: text('detail').notNull(),
  blockNumber: bigint('block_number', { mode: 'bigint' }),
  createdAt: createdAt(),
  acknowledgedAt: ts('acknowledged_at'),
  acknowledgedBy: uuid('acknowledged_by'),
});

/** Each run of the reconciliation of money in against the chain (`npm run chain:reconcile`, the daily job, an administrator). */
export const chainReconciliations = pgTable(
  'chain_reconciliations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** daily, admin or cli. */
    trigger: text('trigger').notNull(),
    requestedBy: uuid('requested_by'),
    startedAt: ts('started_at').notNull(),
    finishedAt: ts('finished_at'),
    /** running, clean, differences, failed (the chain could not be read). */
    status: text('status').notNull(),
    throughBlock: bigint('through_block', { mode: 'bigint' }),
    checkedDeposits: integer('checked_deposits').notNull().default(0),
    checkedTransfers: integer('checked_transfers').notNull().default(0),
    checkedAddresses: integer('checked_addresses').notNull().default(0),
    /** Transfers out of the payout address and out of deposit addresses compared (money out). */
    checkedPayouts: integer('checked_payouts').notNull().default(0),
    differenceCount: integer('difference_count').notNull().default(0),
    /** The first differences found (at most 200), as printed by the command. */
    differences: jsonb('differences')
      .notNull()
      .default(sql`'[]'::jsonb`),
    error: text('error'),
  },
  (t) => [index('chain_reconciliations_started_idx').on(t.startedAt)],
);

/** USDC held on chain by the platform's addresses, as last read (the solvency view's cache). */
export const onchainBalances = pgTable('onchain_balances', {
  address: text('address').primaryKey(),
  /** deposit (an investor's address), shared (DEPOSIT_ADDRESS) or payout (PAYOUT_ADDRESS). */
  kind: text('kind').notNull(),
  balance: money('balance').notNull(),
  readAt: ts('read_at').notNull(),
});

// ---------------------------------------------------------------- tiers, investments, cycles, rewards

export const tiers = pgTable(
  'tiers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    amount: money('amount').notNull(),
    /** Daily rate in percent x 10^4 (1.5% = 15000). */
    dailyRateScaled: integer('daily_rate_scaled').notNull(),
    active: boolean('active').notNull().default(true),
    sortOrder: integer('sort_order').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    check('tiers_amount_positive', sql`${t.amount} > 0`),
    check('tiers_rate_range', sql`${t.dailyRateScaled} > 0 AND ${t.dailyRateScaled} <= 1000000`),
  ],
);

export const investments = pgTable(
  'investments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    tierId: uuid('tier_id')
      .notNull()
      .references(() => tiers.id),
    /** Terms are copied at purchase: later tier edits do not change a bought investment. */
    tierName: text('tier_name').notNull(),
    amount: money('amount').notNull(),
    dailyRateScaled: integer('daily_rate_scaled').notNull(),
    totalEarned: money('total_earned')
      .notNull()
      .default(sql`0`),
    cyclesCompleted: integer('cycles_completed').notNull().default(0),
    earningStarted: boolean('earning_started').notNull().default(false),
    earningCompleted: boolean('earning_completed').notNull().default(false),
    cycleStartedAt: ts('cycle_started_at'),
    cycleEndTime: ts('cycle_end_time'),
    /** Platform calendar day (PLATFORM_TIMEZONE) of the last cycle start. */
    lastCycleDay: date('last_cycle_day', { mode: 'string' }),
    withdrawalApprovedAt: ts('withdrawal_approved_at'),
    nextCycleAvailableAt: ts('next_cycle_available_at'),
    /** The running cycle's ready-to-complete e-mail was queued (claimed once, by one sweep); a new cycle clears it. */
    cycleReminderSentAt: ts('cycle_reminder_sent_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('investments_user_idx').on(t.userId, t.createdAt),
    index('investments_created_idx').on(t.createdAt),
    /** The reminder sweep: running cycles not yet reminded, by end time. */
    index('investments_reminder_due_idx')
      .on(t.cycleEndTime)
      .where(sql`${t.earningStarted} AND ${t.cycleReminderSentAt} IS NULL`),
    check('investments_amount_positive', sql`${t.amount} > 0`),
  ],
);

export const cycleEarnings = pgTable(
  'cycle_earnings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    investmentId: uuid('investment_id')
      .notNull()
      .references(() => investments.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    cycleNumber: integer('cycle_number').notNull(),
    grossAmount: money('gross_amount').notNull(),
    withdrawalRequested: boolean('withdrawal_requested').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('cycle_earnings_investment_cycle_key').on(t.investmentId, t.cycleNumber),
    index('cycle_earnings_user_unrequested_idx')
      .on(t.userId)
      .where(sql`NOT ${t.withdrawalRequested}`),
    /**
     * Lifetime earnings on the dashboard sum a user's cycle earnings (the partial index above cannot); unique
     * with the earning's id and investment, so an earning withdrawal's one foreign key can name all three.
     */
    uniqueIndex('cycle_earnings_user_key').on(t.userId, t.id, t.investmentId),
    check('cycle_earnings_gross_non_negative', sql`${t.grossAmount} >= 0`),
  ],
);

export const referralRewards = pgTable(
  'referral_rewards',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    fromUserId: uuid('from_user_id')
      .notNull()
      .references(() => users.id),
    investmentId: uuid('investment_id')
      .notNull()
      .references(() => investments.id),
    level: integer('level').notNull(),
    amount: money('amount').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('referral_rewards_investment_level_key').on(t.investmentId, t.level),
    index('referral_rewards_user_idx').on(t.userId, t.createdAt),
    check('referral_rewards_level', sql`${t.level} BETWEEN 1 AND 3`),
    check('referral_rewards_amount_positive', sql`${t.amount} > 0`),
  ],
);

// ---------------------------------------------------------------- withdrawals

export const withdrawals = pgTable(
  'withdrawals',
  {
    /**
     * Time-ordered (hf_uuid7, db/functions.sql): the rows of one request land on the primary key's last
     * pages, not on one random page each (decision 0056).
     */
    id: uuid('id')
      .primaryKey()
      .default(sql`hf_uuid7()`),
    /** Checked through withdrawals_earning_fk (an earning's) or nonEarningUserId (rewards and balance). */
    userId: uuid('user_id').notNull(),
    /** One Withdraw All request creates several withdrawals sharing this id. */
    requestId: uuid('request_id').notNull(),
    source: text('source').notNull(),
    status: text('status').notNull().default('pending'),
    amount: money('amount').notNull(),
    feeAmount: money('fee_amount').notNull(),
    netAmount: money('net_amount').notNull(),
    cycleEarningId: uuid('cycle_earning_id'),
    investmentId: uuid('investment_id'),
    cycleNumber: integer('cycle_number'),
    walletAddress: text('wallet_address').notNull(),
    requestedAt: ts('requested_at').notNull().defaultNow(),
    processedAt: ts('processed_at'),
    processedBy: uuid('processed_by'),
    txHash: text('tx_hash'),
    notes: text('notes'),
    /**
     * The payout batch it was exported in: "in payment" while it is pending and the batch is open, or cancelled
     * after its file was downloaded and still inside its grace (payout_batches.grace_until).
     */
    batchId: uuid('batch_id'),
    /** The session that asked for it: "this wasn't me" about that session rejects it. */
    sessionId: uuid('session_id'),
    /** The token was read refusing transfers to the wallet (USDC's blacklist): kept out of batches until it is not. */
    payeeRefusedAt: ts('payee_refused_at'),
    /**
     * The owner of a rewards or balance withdrawal (null for an earning's): the users foreign key sits here,
     * so an earning withdrawal pays one foreign-key check (withdrawals_earning_fk, which also proves its
     * owner through the earning's) instead of three. Withdraw All inserts 1,000 of those at once
     * (docs/decisions/0053-withdraw-all-one-hold.md).
     */
    nonEarningUserId: uuid('non_earning_user_id')
      .generatedAlwaysAs(sql`CASE WHEN cycle_earning_id IS NULL THEN user_id END`)
      .references(() => users.id),
  },
  (t) => [
    /**
     * An earning withdrawal's earning, of this owner and investment: one check for what three foreign keys
     * (earning, investment, owner) checked, and a stronger one (they belong together). withdrawals_earning_link
     * makes sure no earning withdrawal escapes it (MATCH SIMPLE skips a row with a null column).
     */
    foreignKey({
      name: 'withdrawals_earning_fk',
      columns: [t.userId, t.cycleEarningId, t.investmentId],
      foreignColumns: [cycleEarnings.userId, cycleEarnings.id, cycleEarnings.investmentId],
    }),
    index('withdrawals_user_requested_idx').on(t.userId, t.requestedAt),
    /**
     * The back-office withdrawal lists page by keyset, newest first: (requested_at, cycle key, id) with
     * the cycle key putting rewards and balance rows (no cycle) before the earnings of their request.
     * They also serve every look-up by requested_at or (status, requested_at): no separate index for those
     * prefixes, which Withdraw All would update once per row.
     */
    index('withdrawals_requested_key_idx').on(t.requestedAt, sql`coalesce(${t.cycleNumber}, 2147483647)`, t.id),
    index('withdrawals_status_requested_key_idx').on(
      t.status,
      t.requestedAt,
      sql`coalesce(${t.cycleNumber}, 2147483647)`,
      t.id,
    ),
    /** The pending withdrawals a payout transfer found on chain could pay (the watcher looks them up by wallet). */
    index('withdrawals_pending_wallet_idx')
      .on(t.walletAddress)
      .where(sql`${t.status} = 'pending'`),
    index('withdrawals_batch_idx')
      .on(t.batchId)
      .where(sql`${t.batchId} IS NOT NULL`),
    /** Approvals sharing a payout hash; only decided withdrawals have one (a new row adds no entry). */
    index('withdrawals_tx_hash_idx')
      .on(t.txHash)
      .where(sql`${t.txHash} IS NOT NULL`),
    /**
     * A cycle earning is held by at most one live withdrawal. Keyed by investment first (an earning's id
     * decides its investment, withdrawals_earning_fk): the entries of one Withdraw All share a few pages
     * instead of one random page each (decision 0056).
     */
    uniqueIndex('withdrawals_live_earning_key')
      .on(t.investmentId, t.cycleEarningId)
      .where(sql`${t.status} <> 'rejected' AND ${t.cycleEarningId} IS NOT NULL`),
    check('withdrawals_status_valid', sql`${t.status} IN ('pending','approved','rejected')`),
    check('withdrawals_source_valid', sql`${t.source} IN ('earning','rewards','balance')`),
    check(
      'withdrawals_earning_link',
      sql`(${t.source} = 'earning') = (${t.cycleEarningId} IS NOT NULL) AND (${t.cycleEarningId} IS NULL) = (${t.investmentId} IS NULL)`,
    ),
    check(
      'withdrawals_amounts',
      sql`${t.amount} > 0 AND ${t.feeAmount} >= 0 AND ${t.netAmount} = ${t.amount} - ${t.feeAmount}`,
    ),
  ],
);

// ---------------------------------------------------------------- admin balance adjustments

/**
 * An administrator's balance update: the signed change it made to the user's `balance` account
 * (its ledger transaction is `admin_adjustment` with ref_id = id). Not a deposit: Total Deposits
 * counts confirmed demo and on-chain deposits only; adjustments are their own figure, net.
 */
export const balanceAdjustments = pgTable(
  'balance_adjustments',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    amount: money('amount').notNull(),
    note: text('note'),
    createdBy: uuid('created_by'),
    /** Four-eyes: the second staff member who approved it (`created_by` proposed it); the receipt says two did. */
    approvedBy: uuid('approved_by'),
    createdAt: createdAt(),
  },
  (t) => [
    index('balance_adjustments_user_idx').on(t.userId, t.createdAt),
    check('balance_adjustments_non_zero', sql`${t.amount} <> 0`),
  ],
);

// ---------------------------------------------------------------- rollups

/**
 * The daily money rollups: per platform day (PLATFORM_TIMEZONE, kept in settings as `rollup_timezone`) and slot
 * (a hash of the user, so parallel writers rarely share a row), `<ledger kind>.count` and `<ledger kind>.amount`
 * of the deposits, admin adjustments and investments booked. Written by postMany with the postings
 * (LEDGER_FIGURES in ledger/ledger.ts); `ledger:check` compares them with the entries (docs/decisions/0083).
 */
export const rollups = pgTable(
  'rollups',
  {
    metric: text('metric').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    slot: integer('slot').notNull(),
    n: bigint('n', { mode: 'bigint' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.metric, t.day, t.slot] })],
);

/**
 * Per user, the lifetime sums the dashboard and the admin users list show: earnings (every cycle earning booked),
 * referral rewards, deposits that count, and balance adjustments. Written by postMany with the postings
 * (LEDGER_FIGURES); a user with nothing yet has no row (read as zeros). `ledger:check` compares them with the
 * entries (docs/decisions/0083).
 */
export const userTotals = pgTable('user_totals', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id),
  earnings: money('earnings')
    .notNull()
    .default(sql`0`),
  referralRewards: money('referral_rewards')
    .notNull()
    .default(sql`0`),
  deposits: money('deposits')
    .notNull()
    .default(sql`0`),
  adjustments: money('adjustments')
    .notNull()
    .default(sql`0`),
});

/** An on-chain payout transaction hash, bound to the one request and wallet it paid. */
/**
 * What one payout transaction paid one wallet (decisions 0008, 0071): the row is the lock approvals with that hash
 * take, and with a chain `chain_value` is the budget their net amounts may not exceed. A Safe batch pays many
 * wallets in one transaction: one row per wallet.
 */
export const payoutTransactions = pgTable(
  'payout_transactions',
  {
    txHash: text('tx_hash').notNull(),
    /** The first request paid with it (without a chain, the only one it may pay). */
    requestId: uuid('request_id').notNull(),
    walletAddress: text('wallet_address').notNull(),
    /** Value the chain showed (micro-USDC), null when no chain is configured. */
    chainValue: money('chain_value'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.txHash, t.walletAddress] })],
);

/** A payout batch exported for a multisig (Safe Transaction Builder file and CSV): its withdrawals are "in payment". */
export const payoutBatches = pgTable('payout_batches', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** open, cancelled, completed (every withdrawal in it decided). */
  status: text('status').notNull().default('open'),
  /** One transfer per request (its withdrawals added up) rather than one per withdrawal. */
  grouped: boolean('grouped').notNull(),
  /** The USDC contract the transfers call. */
  token: text('token').notNull(),
  createdBy: uuid('created_by').notNull(),
  createdAt: createdAt(),
  closedAt: ts('closed_at'),
  closedBy: uuid('closed_by'),
  /** First download of its file: from then on the multisig may execute it, so a cancel must be confirmed. */
  downloadedAt: ts('downloaded_at'),
  /** Cancelled after a download: its withdrawals stay in payment until then (a payout found on chain completes them). */
  graceUntil: ts('grace_until'),
});

/**
 * A USDC transfer out of PAYOUT_ADDRESS the watcher read in a deep block, and the withdrawals it paid: matched by
 * itself when exactly one pending withdrawal (or one request's, or one batch call's) adds up to it, else left for
 * an administrator (ambiguous: several would; unmatched: none does).
 */
export const payoutTransfers = pgTable(
  'payout_transfers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    txHash: text('tx_hash').notNull(),
    logIndex: integer('log_index').notNull(),
    toAddress: text('to_address').notNull(),
    amount: money('amount').notNull(),
    blockNumber: bigint('block_number', { mode: 'bigint' }).notNull(),
    blockHash: text('block_hash').notNull(),
    /** pending (not looked at yet), matched, ambiguous, unmatched, held (an account frozen), dismissed. */
    status: text('status').notNull().default('pending'),
    /** The withdrawals it paid (matched). */
    withdrawalIds: uuid('withdrawal_ids').array(),
    /** Why it was not matched by itself, in words an administrator can act on. */
    detail: text('detail'),
    createdAt: createdAt(),
    resolvedAt: ts('resolved_at'),
    resolvedBy: uuid('resolved_by'),
  },
  (t) => [
    uniqueIndex('payout_transfers_log_key').on(t.txHash, t.logIndex),
    index('payout_transfers_open_idx')
      .on(t.status)
      .where(sql`${t.status} <> 'matched'`),
  ],
);

/**
 * USDC moved out of an investor's deposit address, as the watcher read it: a sweep to TREASURY_ADDRESS, or, to any
 * other address, money that left without the treasury (an alarm, and a difference for the reconciliation).
 */
export const depositSweeps = pgTable(
  'deposit_sweeps',
  {
    txHash: text('tx_hash').notNull(),
    logIndex: integer('log_index').notNull(),
    fromAddress: text('from_address').notNull(),
    toAddress: text('to_address').notNull(),
    amount: money('amount').notNull(),
    blockNumber: bigint('block_number', { mode: 'bigint' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.txHash, t.logIndex] }), index('deposit_sweeps_block_idx').on(t.blockNumber)],
);

// ---------------------------------------------------------------- operations

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** Null: the platform itself acted (the chain watcher completing withdrawals by a payout it found). */
    adminId: uuid('admin_id').references(() => users.id),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    note: text('note'),
    ip: text('ip'),
    /** On the platform clock, always given (no database default to fall back on). */
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    index('audit_log_created_idx').on(t.createdAt),
    index('audit_log_action_idx').on(t.action, t.createdAt),
    /** The audit list pages by keyset in (created_at, id) order, all or one action. */
    index('audit_log_created_id_idx').on(t.createdAt, t.id),
    index('audit_log_action_created_id_idx').on(t.action, t.createdAt, t.id),
    index('audit_log_target_idx').on(t.targetId),
  ],
);

/**
 * Four-eyes (FOUR_EYES=on): a money or staff decision one staff member proposed, which takes effect only when a
 * second one approves it. `input` is what approval will do, `premise` what the proposer saw and approval re-checks.
 */
export const proposals = pgTable(
  'proposals',
  {
    id: uuid('id').primaryKey(),
    kind: text('kind').notNull(),
    /** What it acts on (a user, deposit, withdrawal or tier id): one open proposal per kind and target. */
    targetId: text('target_id').notNull(),
    /** The investor or staff member it is about, if any (for the list). */
    userId: uuid('user_id').references(() => users.id),
    input: jsonb('input').notNull(),
    premise: jsonb('premise').notNull(),
    status: text('status').notNull(),
    proposedBy: uuid('proposed_by')
      .notNull()
      .references(() => users.id),
    proposedAt: ts('proposed_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    decidedBy: uuid('decided_by').references(() => users.id),
    decidedAt: ts('decided_at'),
    /** Why it was refused or rejected. */
    reason: text('reason'),
  },
  (t) => [
    index('proposals_status_idx').on(t.status, t.proposedAt),
    uniqueIndex('proposals_one_open_key')
      .on(t.kind, t.targetId)
      .where(sql`${t.status} = 'open'`),
    check('proposals_status_valid', sql`${t.status} IN ('open', 'approved', 'rejected', 'expired')`),
    // The second pair of eyes, kept by the database too: nobody approves their own proposal.
    check('proposals_four_eyes', sql`${t.status} <> 'approved' OR ${t.decidedBy} <> ${t.proposedBy}`),
  ],
);

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: uuid('user_id').notNull(),
    key: text('key').notNull(),
    route: text('route').notNull(),
    requestHash: text('request_hash').notNull(),
    status: text('status').notNull(),
    responseStatus: integer('response_status'),
    responseBody: jsonb('response_body'),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index('idempotency_keys_expires_idx').on(t.expiresAt)],
);

/**
 * Failure-throttle counters when no REDIS_URL is set: fixed windows counted with one atomic
 * upsert, shared by every instance on the database (docs/decisions/0020-failure-throttles.md).
 * Keys are hashes: no e-mail address or client address is stored.
 */
export const throttleCounters = pgTable(
  'throttle_counters',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    resetAt: ts('reset_at').notNull(),
  },
  (t) => [index('throttle_counters_reset_idx').on(t.resetAt)],
);

/**
 * E-mails waiting to be sent: written by the transaction of the event they report (so a mail exists
 * exactly when its event committed) and delivered by the mail-outbox job, which claims rows with
 * FOR UPDATE SKIP LOCKED and a lease (`locked_until`), retries with backoff (`next_attempt_at`) and
 * marks `sent_at` (docs/decisions/0028-mail-outbox.md). Rendered at the event, so it says what was true then.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    userId: uuid('user_id').references(() => users.id),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull(),
    lockedUntil: ts('locked_until'),
    lastError: text('last_error'),
    sentAt: ts('sent_at'),
    createdAt: createdAt(),
  },
  (t) => [
    /** The job's claim: unsent rows in due order (sent ones drop out of the index). */
    index('mail_outbox_due_idx')
      .on(t.nextAttemptAt, t.id)
      .where(sql`${t.sentAt} IS NULL`),
    index('mail_outbox_user_idx').on(t.userId, t.createdAt),
  ],
);

/** Key/value settings kept by the server itself (e.g. the generated JWT secret). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

/**
 * The withdrawal limits (micro-USDC; null: no limit), one row. Its row lock serialises the Withdraw All requests that
 * count against the platform-wide limit, and a policy change against them.
 */
export const withdrawalPolicy = pgTable(
  'withdrawal_policy',
  {
    id: integer('id').primaryKey(),
    perInvestorDay: money('per_investor_day'),
    perInvestorMonth: money('per_investor_month'),
    platformDay: money('platform_day'),
    updatedAt: ts('updated_at'),
    updatedBy: uuid('updated_by').references(() => users.id),
  },
  (t) => [
    check('withdrawal_policy_one_row', sql`${t.id} = 1`),
    // A null limit passes (a CHECK fails only on false).
    check(
      'withdrawal_policy_positive',
      sql`${t.perInvestorDay} > 0 AND ${t.perInvestorMonth} > 0 AND ${t.platformDay} > 0`,
    ),
  ],
);
// ---------------------------------------------------------------- proof of reserves

/** A published proof of reserves: never changed after it is taken (docs/decisions/0093-proof-of-reserves.md). */
export const porSnapshots = pgTable(
  'por_snapshots',
  {
    id: uuid('id').primaryKey(),
    takenAt: ts('taken_at').notNull(),
    root: text('root').notNull(),
    total: money('total').notNull(),
    leaves: integer('leaves').notNull(),
    /** The leaves of users who are not staff (staff's own rewards are leaves too). */
    investors: integer('investors').notNull().default(0),
    blockNumber: bigint('block_number', { mode: 'bigint' }),
    /** The HMAC key each investor's salt is derived from (salt = HMAC-SHA256(key, user id)); never published. */
    saltKey: text('salt_key').notNull(),
    /** The ledger chain's head at the snapshot's last transaction (ledger_chain), when it had one. */
    ledgerTxId: bigint('ledger_tx_id', { mode: 'number' }),
    ledgerHead: text('ledger_head'),
  },
  (t) => [index('por_snapshots_taken_idx').on(t.takenAt)],
);

/** One leaf per user and snapshot, in tree order. */
export const porLeaves = pgTable(
  'por_leaves',
  {
    snapshotId: uuid('snapshot_id')
      .notNull()
      .references(() => porSnapshots.id),
    idx: integer('idx').notNull(),
    userId: uuid('user_id').notNull(),
    amount: money('amount').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.snapshotId, t.idx] }),
    uniqueIndex('por_leaves_user_key').on(t.snapshotId, t.userId),
  ],
);

/** The tree's nodes from the level of 1024-leaf subtrees up: a proof recomputes its own subtree from the leaves. */
export const porNodes = pgTable(
  'por_nodes',
  {
    snapshotId: uuid('snapshot_id')
      .notNull()
      .references(() => porSnapshots.id),
    level: integer('level').notNull(),
    idx: integer('idx').notNull(),
    hash: text('hash').notNull(),
    sum: money('sum').notNull(),
  },
  (t) => [primaryKey({ columns: [t.snapshotId, t.level, t.idx] })],
);

/** The USDC of each platform address at the snapshot's block, and the signature proving the platform controls it. */
export const porReserves = pgTable(
  'por_reserves',
  {
    snapshotId: uuid('snapshot_id')
      .notNull()
      .references(() => porSnapshots.id),
    address: text('address').notNull(),
    kind: text('kind').notNull(),
    balance: money('balance').notNull(),
    signature: text('signature'),
    verified: boolean('verified').notNull().default(false),
    /** Why an uploaded signature did not verify (POR_UNVERIFIED_REASONS); null when verified or none uploaded. */
    reason: text('reason'),
  },
  (t) => [primaryKey({ columns: [t.snapshotId, t.address] })],
);

/**
 * The ledger's hash chain, one link per ledger transaction in id order, extended after commit by a job (no lock or
 * statement in a money transaction). No foreign key: a deleted ledger row must stay findable by its link.
 */
export const ledgerChain = pgTable('ledger_chain', {
  transactionId: bigint('transaction_id', { mode: 'number' }).primaryKey(),
  hash: text('hash').notNull(),
});

/** The chain's extender state (one row): its head, and the ids seen with the snapshot that settles gaps below them. */
export const ledgerChainState = pgTable('ledger_chain_state', {
  id: integer('id').primaryKey(),
  headId: bigint('head_id', { mode: 'number' }).notNull(),
  headHash: text('head_hash').notNull(),
  seenMaxId: bigint('seen_max_id', { mode: 'number' }).notNull(),
  seenXmax: text('seen_xmax').notNull(),
});
