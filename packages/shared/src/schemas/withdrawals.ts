import * as z from 'zod/mini';
import { MAX_LENGTH } from '../constants.ts';
import { TEXT } from '../texts.ts';
import { checksumMatches } from '../address.ts';
import {
  EVM_ADDRESS,
  TX_HASH,
  cacheBustQuery,
  cursorInfo,
  idSchema,
  isoDate,
  pageInfo,
  pageQuery,
  requiredText,
  usdc,
} from './common.ts';
import { userRefSchema } from './user.ts';

export const WITHDRAWAL_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];
export const WITHDRAWAL_SOURCES = ['earning', 'rewards', 'balance'] as const;
export type WithdrawalSource = (typeof WITHDRAWAL_SOURCES)[number];

/** A required field that must match a format: the format is checked only once the field is there. */
const requiredMatching = (required: string, re: RegExp, invalid: string) =>
  z.pipe(requiredText(required, 200), z.string().check(z.regex(re, invalid), z.toLowerCase()));

export const requestAllBody = z.strictObject({
  walletAddress: z.pipe(
    requiredText(TEXT.walletRequired, 200),
    z
      .string()
      .check(z.regex(EVM_ADDRESS, TEXT.invalidWallet), z.refine(checksumMatches, TEXT.walletChecksum), z.toLowerCase()),
  ),
  withdrawalPassword: z
    .string({ error: TEXT.withdrawalPasswordRequired })
    .check(z.minLength(1, TEXT.withdrawalPasswordRequired), z.maxLength(200, TEXT.withdrawalPasswordWrong)),
});
export type RequestAllInput = z.input<typeof requestAllBody>;

const notes = z.pipe(
  z.nullish(z.string().check(z.trim(), z.maxLength(MAX_LENGTH.withdrawalNotes, TEXT.notesTooLong))),
  z.transform((s) => (s ? s : null)),
);

export const approveBody = z.strictObject({
  withdrawalId: idSchema,
  txHash: requiredMatching(TEXT.txHashRequired, TX_HASH, TEXT.invalidTxHash),
  notes,
});
export type ApproveInput = z.input<typeof approveBody>;

export const rejectBody = z.strictObject({ withdrawalId: idSchema, notes });
export type RejectInput = z.input<typeof rejectBody>;

export const populatedInvestment = z.object({ _id: z.string(), tier: z.string(), amount: usdc });

/** The spec's Withdrawal entity. */
export const withdrawalSchema = z.object({
  _id: z.string(),
  status: z.enum(WITHDRAWAL_STATUSES),
  source: z.enum(WITHDRAWAL_SOURCES),
  requestId: z.string(),
  /** Gross amount. */
  amount: usdc,
  feeAmount: usdc,
  netAmount: usdc,
  cycleNumber: z.nullable(z.number()),
  investmentId: z.nullable(populatedInvestment),
  walletAddress: z.string(),
  requestedAt: isoDate,
  processedAt: z.nullable(isoDate),
  txHash: z.nullable(z.string()),
  notes: z.nullable(z.string()),
});
export type Withdrawal = z.infer<typeof withdrawalSchema>;

/** Every admin view of a withdrawal: the requester populated (spec: userId with firstName, lastName, email). */
export const adminWithdrawalSchema = z.extend(withdrawalSchema, { userId: userRefSchema });
export type AdminWithdrawal = z.infer<typeof adminWithdrawalSchema>;

export const myWithdrawalsResponse = z.object({ withdrawals: z.array(withdrawalSchema) });

export const withdrawalCounts = z.object({ pending: z.number(), total: z.number() });

export const adminWithdrawalsQuery = z.extend(pageQuery, {
  status: z.optional(z.enum(WITHDRAWAL_STATUSES)),
  ...cacheBustQuery.shape,
});
export type AdminWithdrawalsQuery = z.input<typeof adminWithdrawalsQuery>;

export const adminWithdrawalsResponse = z.object({
  withdrawals: z.array(adminWithdrawalSchema),
  pagination: pageInfo,
  counts: withdrawalCounts,
  ...cursorInfo,
});
export type AdminWithdrawalsResponse = z.infer<typeof adminWithdrawalsResponse>;

export const withdrawalActionResponse = z.object({ message: z.string(), withdrawal: adminWithdrawalSchema });
