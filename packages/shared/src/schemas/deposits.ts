import { z } from 'zod';
import { MIN_DEPOSIT_MICRO } from '../constants.ts';
import { MSG } from '../messages.ts';
import { parseUsdc } from '../money.ts';
import { EVM_ADDRESS, TX_HASH, cursorInfo, isoDate, pageQuery, usdc } from './common.ts';
import { userRefSchema } from './user.ts';

export const DEPOSIT_STATUSES = ['pending', 'confirmed', 'failed'] as const;
export const DEPOSIT_TYPES = ['demo', 'real', 'admin_credit'] as const;
export type DepositStatus = (typeof DEPOSIT_STATUSES)[number];
export type DepositType = (typeof DEPOSIT_TYPES)[number];

/** The spec's Deposit entity as the investor sees it (userId is the owner's id). */
export const depositSchema = z.object({
  _id: z.string(),
  amount: usdc,
  status: z.enum(DEPOSIT_STATUSES),
  type: z.enum(DEPOSIT_TYPES),
  txHash: z.string().nullable(),
  fromAddress: z.string().nullable(),
  createdAt: isoDate,
  processedAt: isoDate.nullable(),
  /** Blocks on top of the transfer's block, counting it (real deposits). */
  confirmations: z.number(),
  requiredConfirmations: z.number(),
  /** Why a failed deposit failed, in words the owner can act on. */
  failureReason: z.string().nullable(),
  userId: z.string(),
});
export type Deposit = z.infer<typeof depositSchema>;

/** Every admin view of a deposit: the depositor populated, and the administrator's note (admin credits). */
export const adminDepositSchema = depositSchema.extend({ note: z.string().nullable(), userId: userRefSchema });
export type AdminDeposit = z.infer<typeof adminDepositSchema>;

export const depositsResponse = z.object({ deposits: z.array(depositSchema) });
export const depositResultResponse = z.object({ message: z.string(), deposit: depositSchema });
export type DepositResult = z.infer<typeof depositResultResponse>;

const amountInput = z.union([z.number(), z.string()]).optional();
const textInput = z.string().optional();
const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/**
 * Checks a submitted amount: a number below 0.5 (or negative) gets the spec's minimum text,
 * anything that is not an amount with at most 6 decimals the invalid-amount text.
 */
export function depositAmountError(value: number | string): string | null {
  const micro = parseUsdc(typeof value === 'string' ? value.trim() : value);
  if (micro === null) {
    const n = Number(value);
    return Number.isFinite(n) && n < 0.5 ? MSG.minDeposit : MSG.invalidDepositAmount;
  }
  return micro < MIN_DEPOSIT_MICRO ? MSG.minDeposit : null;
}

/**
 * process-deposit: first every field present ('Please fill all required fields'), then the
 * minimum, then the formats of hash and address, each reported alone (spec section 5).
 */
export const processDepositBody = z
  .strictObject({ txHash: textInput, amount: amountInput, fromAddress: textInput })
  .superRefine((v, ctx) => {
    const fail = (message: string, path: string) => ctx.addIssue({ code: 'custom', message, path: [path] });
    if (blank(v.txHash) || blank(v.amount) || blank(v.fromAddress)) return fail(MSG.depositRequired, 'txHash');
    const amountError = depositAmountError(v.amount ?? '');
    if (amountError) return fail(amountError, 'amount');
    if (!TX_HASH.test((v.txHash ?? '').trim())) return fail(MSG.invalidTxHash, 'txHash');
    if (!EVM_ADDRESS.test((v.fromAddress ?? '').trim())) return fail(MSG.invalidWallet, 'fromAddress');
  })
  .transform((v) => ({
    txHash: (v.txHash ?? '').trim().toLowerCase(),
    amount: parseUsdc(typeof v.amount === 'string' ? v.amount.trim() : v.amount) ?? 0n,
    fromAddress: (v.fromAddress ?? '').trim().toLowerCase(),
  }));
export type ProcessDepositInput = z.input<typeof processDepositBody>;

/** update-failed-deposit: hash and amount first ('Please fill transaction hash and amount'). */
export const updateFailedDepositBody = z
  .strictObject({ depositId: z.string().max(100).optional(), txHash: textInput, amount: amountInput })
  .superRefine((v, ctx) => {
    const fail = (message: string, path: string) => ctx.addIssue({ code: 'custom', message, path: [path] });
    if (blank(v.txHash) || blank(v.amount)) return fail(MSG.failedDepositRequired, 'txHash');
    const amountError = depositAmountError(v.amount ?? '');
    if (amountError) return fail(amountError, 'amount');
    if (!TX_HASH.test((v.txHash ?? '').trim())) return fail(MSG.invalidTxHash, 'txHash');
  })
  .transform((v) => ({
    depositId: v.depositId ?? '',
    txHash: (v.txHash ?? '').trim().toLowerCase(),
    amount: parseUsdc(typeof v.amount === 'string' ? v.amount.trim() : v.amount) ?? 0n,
  }));
export type UpdateFailedDepositInput = z.input<typeof updateFailedDepositBody>;

export const ADMIN_DEPOSIT_FILTERS = ['all', ...DEPOSIT_STATUSES] as const;
export type AdminDepositFilter = (typeof ADMIN_DEPOSIT_FILTERS)[number];

export const adminDepositsQuery = pageQuery.extend({
  status: z.enum(ADMIN_DEPOSIT_FILTERS).default('all'),
  pageSize: pageQuery.shape.pageSize.unwrap().default(50),
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
  depositId: z.string({ error: MSG.notFound }).max(100, MSG.notFound),
});
export const adminProcessDepositResponse = z.object({ message: z.string(), deposit: depositSchema });

/** Admin sets a user's balance to an exact amount ('Please enter a valid amount (0 or greater)'). */
export const updateUserBalanceBody = z.strictObject({
  userId: z.string({ error: MSG.notFound }).max(100, MSG.notFound),
  newBalance: z.union([z.number(), z.string()], { error: MSG.validAmount }).transform((v, ctx) => {
    const micro = parseUsdc(typeof v === 'string' ? v.trim() : v);
    if (micro === null) {
      ctx.addIssue({ code: 'custom', message: MSG.validAmount });
      return z.NEVER;
    }
    return micro;
  }),
  note: z
    .string()
    .max(500, MSG.noteTooLong)
    .optional()
    .transform((s) => (s && s.trim() ? s.trim() : MSG.balanceNoteDefault)),
});
export type UpdateUserBalanceInput = z.input<typeof updateUserBalanceBody>;
