import * as z from 'zod/mini';
import { checksumMatches } from '../address.ts';
import { MIN_DEPOSIT_MICRO } from '../constants.ts';
import { TEXT } from '../texts.ts';
import { exceedsMaxAmount, parseUsdc } from '../money.ts';
import {
  EVM_ADDRESS,
  TX_HASH,
  convert,
  cursorInfo,
  isoDate,
  pageQuery,
  pageSizeQuery,
  storedSaidSchema,
  usdc,
} from './common.ts';
import { userRefSchema } from './user.ts';

export const DEPOSIT_STATUSES = ['pending', 'confirmed', 'failed'] as const;
export const DEPOSIT_TYPES = ['demo', 'real', 'admin_credit'] as const;
/**
 * Why a deposit failed: the chain's refusals, a hash another deposit holds, or an administrator's
 * rejection. The correction form offers the from-address for `wrong_sender` and `rejected`.
 */
export const DEPOSIT_FAILURE_KINDS = [
  'reverted',
  'not_found',
  'wrong_token',
  'wrong_recipient',
  'wrong_sender',
  'wrong_amount',
  'hash_taken',
  'rejected',
] as const;
export type DepositFailureKind = (typeof DEPOSIT_FAILURE_KINDS)[number];
/** Failures whose correction may need another from-address. */
export const FROM_ADDRESS_CORRECTABLE: readonly DepositFailureKind[] = ['wrong_sender', 'rejected'];
export type DepositStatus = (typeof DEPOSIT_STATUSES)[number];
export type DepositType = (typeof DEPOSIT_TYPES)[number];

/** The spec's Deposit entity as the investor sees it (userId is the owner's id). */
export const depositSchema = z.object({
  _id: z.string(),
  amount: usdc,
  status: z.enum(DEPOSIT_STATUSES),
  type: z.enum(DEPOSIT_TYPES),
  txHash: z.nullable(z.string()),
  fromAddress: z.nullable(z.string()),
  createdAt: isoDate,
  processedAt: z.nullable(isoDate),
  /** Blocks on top of the transfer's block, counting it (real deposits). */
  confirmations: z.number(),
  requiredConfirmations: z.number(),
  /** Why a failed deposit failed, in words the owner can act on. */
  failureReason: z.nullable(z.string()),
  /** The reason's template and values, said in the reader's language (docs/decisions/0084). */
  failureSaid: storedSaidSchema,
  failureKind: z.nullable(z.enum(DEPOSIT_FAILURE_KINDS)),
  /** A failed deposit its owner may correct: a claim, not a transfer the chain watcher read (those are the chain's facts). */
  correctable: z.boolean(),
  userId: z.string(),
});
export type Deposit = z.infer<typeof depositSchema>;

/** Every admin view of a deposit: the depositor populated, and the administrator's note (admin credits). */
export const adminDepositSchema = z.extend(depositSchema, { note: z.nullable(z.string()), userId: userRefSchema });
export type AdminDeposit = z.infer<typeof adminDepositSchema>;

export const depositsResponse = z.object({ deposits: z.array(depositSchema) });
export const depositResultResponse = z.object({ message: z.string(), deposit: depositSchema });
export type DepositResult = z.infer<typeof depositResultResponse>;

const amountInput = z.optional(z.union([z.number(), z.string()]));
const textInput = z.optional(z.string());
const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/**
 * Checks a submitted amount: a number below 0.5 (or negative) gets the spec's minimum text,
 * anything that is not an amount with at most 6 decimals the invalid-amount text.
 */
export function depositAmountError(value: number | string): string | null {
  const micro = parseUsdc(typeof value === 'string' ? value.trim() : value);
  if (micro === null) {
    const n = Number(value);
    if (exceedsMaxAmount(value)) return TEXT.amountTooLarge;
    return Number.isFinite(n) && n < 0.5 ? TEXT.minDeposit : TEXT.invalidDepositAmount;
  }
  return micro < MIN_DEPOSIT_MICRO ? TEXT.minDeposit : null;
}

/** What is wrong with a typed sending address: not an address, or a mixed-case one whose EIP-55 checksum fails. */
function senderError(typed: string): string | null {
  const from = typed.trim();
  if (!EVM_ADDRESS.test(from)) return TEXT.invalidWallet;
  return checksumMatches(from) ? null : TEXT.walletChecksum;
}

/**
 * process-deposit: first every field present ('Please fill all required fields'), then the
 * minimum, then the formats of hash and address, each reported alone (spec section 5).
 */
export const processDepositFields = z.strictObject({ txHash: textInput, amount: amountInput, fromAddress: textInput });
export const processDepositBody = z.pipe(
  processDepositFields.check(
    z.superRefine((v, ctx) => {
      const fail = (message: string, path: string) => ctx.addIssue({ code: 'custom', message, path: [path], input: v });
      if (blank(v.txHash) || blank(v.amount) || blank(v.fromAddress)) {
        // Every empty field is marked; the spec's one text is the message (the first issue).
        for (const f of ['txHash', 'amount', 'fromAddress'] as const) if (blank(v[f])) fail(TEXT.depositRequired, f);
        return;
      }
      const amountError = depositAmountError(v.amount ?? '');
      if (amountError) return fail(amountError, 'amount');
      if (!TX_HASH.test((v.txHash ?? '').trim())) return fail(TEXT.invalidTxHash, 'txHash');
      const fromError = senderError(v.fromAddress ?? '');
      if (fromError) return fail(fromError, 'fromAddress');
    }),
  ),
  z.transform((v) => ({
    txHash: (v.txHash ?? '').trim().toLowerCase(),
    amount: parseUsdc(typeof v.amount === 'string' ? v.amount.trim() : v.amount) ?? 0n,
    fromAddress: (v.fromAddress ?? '').trim().toLowerCase(),
  })),
);
export type ProcessDepositInput = z.input<typeof processDepositBody>;

/**
 * "Send from my wallet": the amount the investor's browser wallet sends to their own deposit address,
 * checked with the deposit rules (required, minimum 0.5, at most 6 decimals) before the wallet is asked.
 */
export const walletDepositBody = z.pipe(
  z.strictObject({ amount: amountInput }).check(
    z.superRefine((v, ctx) => {
      const amountError = blank(v.amount) ? TEXT.depositRequired : depositAmountError(v.amount ?? '');
      if (amountError) ctx.addIssue({ code: 'custom', message: amountError, path: ['amount'], input: v });
    }),
  ),
  z.transform((v) => ({ amount: parseUsdc(typeof v.amount === 'string' ? v.amount.trim() : v.amount) ?? 0n })),
);
export type WalletDepositInput = z.input<typeof walletDepositBody>;

/**
 * update-failed-deposit: hash and amount first ('Please fill transaction hash and amount'); a
 * from-address is optional (a wrong sender is corrected with it) and, when given, must be an address.
 */
export const updateFailedDepositBody = z.pipe(
  z
    .strictObject({
      depositId: z.optional(z.string().check(z.maxLength(100))),
      txHash: textInput,
      amount: amountInput,
      fromAddress: textInput,
    })
    .check(
      z.superRefine((v, ctx) => {
        const fail = (message: string, path: string) =>
          ctx.addIssue({ code: 'custom', message, path: [path], input: v });
        if (blank(v.txHash) || blank(v.amount)) {
          for (const f of ['txHash', 'amount'] as const) if (blank(v[f])) fail(TEXT.failedDepositRequired, f);
          return;
        }
        const amountError = depositAmountError(v.amount ?? '');
        if (amountError) return fail(amountError, 'amount');
        if (!TX_HASH.test((v.txHash ?? '').trim())) return fail(TEXT.invalidTxHash, 'txHash');
        const fromError = blank(v.fromAddress) ? null : senderError(v.fromAddress ?? '');
        if (fromError) return fail(fromError, 'fromAddress');
      }),
    ),
  z.transform((v) => ({
    depositId: v.depositId ?? '',
    txHash: (v.txHash ?? '').trim().toLowerCase(),
    amount: parseUsdc(typeof v.amount === 'string' ? v.amount.trim() : v.amount) ?? 0n,
    fromAddress: blank(v.fromAddress) ? null : (v.fromAddress ?? '').trim().toLowerCase(),
  })),
);
export type UpdateFailedDepositInput = z.input<typeof updateFailedDepositBody>;

export const ADMIN_DEPOSIT_FILTERS = ['all', ...DEPOSIT_STATUSES] as const;
export type AdminDepositFilter = (typeof ADMIN_DEPOSIT_FILTERS)[number];

export const adminDepositsQuery = z.extend(pageQuery, {
  status: z._default(z.enum(ADMIN_DEPOSIT_FILTERS), 'all'),
  pageSize: pageSizeQuery(50),
});

export const depositCountsSchema = z.object({
  all: z.number(),
  pending: z.number(),
  confirmed: z.number(),
  failed: z.number(),
});
export type DepositCounts = z.infer<typeof depositCountsSchema>;

export const adminDepositsResponse = z.object({
  deposits: z.array(adminDepositSchema),
  counts: depositCountsSchema,
  page: z.number(),
  pageSize: z.number(),
  /** Rows matching the filter. */
  total: z.number(),
  ...cursorInfo,
});
export type AdminDepositsResponse = z.infer<typeof adminDepositsResponse>;

/** Ids that are not UUIDs are simply not found (404 from the service). */
export const adminProcessDepositBody = z.strictObject({
  depositId: z.string({ error: TEXT.notFound }).check(z.maxLength(100, TEXT.notFound)),
});
export const adminProcessDepositResponse = z.object({ message: z.string(), deposit: depositSchema });

/** The owner's failed deposit to take off the failed-deposits list (it stays in the history). */
export const dismissFailedDepositBody = z.strictObject({
  depositId: z.string({ error: TEXT.notFound }).check(z.maxLength(100, TEXT.notFound)),
});
export type DismissFailedDepositInput = z.input<typeof dismissFailedDepositBody>;

/** An administrator fails a pending deposit with a reason its owner reads (and can act on). */
export const adminRejectDepositBody = z.strictObject({
  depositId: z.string({ error: TEXT.notFound }).check(z.maxLength(100, TEXT.notFound)),
  reason: z
    .string({ error: TEXT.rejectReasonRequired })
    .check(z.trim(), z.minLength(1, TEXT.rejectReasonRequired), z.maxLength(500, TEXT.rejectReasonTooLong)),
});
export type AdminRejectDepositInput = z.input<typeof adminRejectDepositBody>;

/** Admin sets a user's balance to an exact amount ('Please enter a valid amount (0 or greater)'). */
export const updateUserBalanceBody = z.strictObject({
  userId: z.string({ error: TEXT.notFound }).check(z.maxLength(100, TEXT.notFound)),
  newBalance: convert(
    z.union([z.number(), z.string()], { error: TEXT.validAmount }),
    (v) => parseUsdc(typeof v === 'string' ? v.trim() : v),
    // A balance with a seventh decimal is a typo worth naming, not "not a valid amount".
    (v) =>
      exceedsMaxAmount(v)
        ? TEXT.amountTooLarge
        : /^\s*\d+\.\d{7,}\s*$/.test(String(v))
          ? TEXT.amountTooPrecise
          : TEXT.validAmount,
  ),
  note: z.pipe(
    z.optional(z.string().check(z.maxLength(500, TEXT.noteTooLong))),
    z.transform((s) => (s && s.trim() ? s.trim() : TEXT.balanceNoteDefault)),
  ),
  /** The balance the administrator saw (the web always sends it): set only if it is still that (409 otherwise). */
  expectedBalance: z.optional(
    convert(
      z.union([z.number(), z.string()], { error: TEXT.validAmount }),
      (v) => parseUsdc(typeof v === 'string' ? v.trim() : v),
      TEXT.validAmount,
    ),
  ),
});
export type UpdateUserBalanceInput = z.input<typeof updateUserBalanceBody>;
