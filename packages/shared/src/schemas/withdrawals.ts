import { z } from 'zod';
import { MSG } from '../messages.ts';
import { EVM_ADDRESS, TX_HASH, cursorInfo, idSchema, isoDate, pageInfo, pageQuery, requiredText, usdc } from './common.ts';
import { userRefSchema } from './user.ts';

export const WITHDRAWAL_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];
export const WITHDRAWAL_SOURCES = ['earning', 'rewards', 'balance'] as const;
export type WithdrawalSource = (typeof WITHDRAWAL_SOURCES)[number];

const lower = (s: string) => s.toLowerCase();

export const requestAllBody = z.strictObject({
  walletAddress: requiredText(MSG.walletRequired, 200)
    .pipe(z.string().regex(EVM_ADDRESS, MSG.invalidWallet))
    .transform(lower),
  withdrawalPassword: z
    .string({ error: MSG.withdrawalPasswordRequired })
    .min(1, MSG.withdrawalPasswordRequired)
    .max(200, MSG.withdrawalPasswordWrong),
});
export type RequestAllInput = z.input<typeof requestAllBody>;

const notes = z
  .string()
  .trim()
  .max(1000, MSG.notesTooLong)
  .nullish()
  .transform((s) => (s ? s : null));

export const approveBody = z.strictObject({
  withdrawalId: idSchema,
  txHash: requiredText(MSG.txHashRequired, 200).pipe(z.string().regex(TX_HASH, MSG.invalidTxHash)).transform(lower),
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
  cycleNumber: z.number().nullable(),
  investmentId: populatedInvestment.nullable(),
  walletAddress: z.string(),
  requestedAt: isoDate,
  processedAt: isoDate.nullable(),
  txHash: z.string().nullable(),
  notes: z.string().nullable(),
});
export type Withdrawal = z.infer<typeof withdrawalSchema>;

/** Every admin view of a withdrawal: the requester populated (spec: userId with firstName, lastName, email). */
export const adminWithdrawalSchema = withdrawalSchema.extend({ userId: userRefSchema });
export type AdminWithdrawal = z.infer<typeof adminWithdrawalSchema>;

export const myWithdrawalsResponse = z.object({ withdrawals: z.array(withdrawalSchema) });

export const withdrawalCounts = z.object({ pending: z.number(), total: z.number() });

export const adminWithdrawalsQuery = pageQuery.extend({
  status: z.enum(WITHDRAWAL_STATUSES).optional(),
  t: z.string().max(30).optional(),
  _: z.string().max(30).optional(),
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
