import { z } from 'zod';
import { MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE } from '../constants.ts';
import { MSG } from '../messages.ts';
import { EVM_ADDRESS, TX_HASH, idSchema, isoDate, pageInfo, requiredText, usdc } from './common.ts';

export const WITHDRAWAL_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];
export const WITHDRAWAL_SOURCES = ['earning', 'rewards', 'balance'] as const;
export type WithdrawalSource = (typeof WITHDRAWAL_SOURCES)[number];

/** Texts of the withdrawal rules the spec leaves open (DOMAIN.md: clear, actionable). */
export const WITHDRAWAL_MSG = {
  invalidWallet: 'Invalid wallet address: expected 0x followed by 40 hex characters',
  withdrawalPasswordRequired: 'Please enter your withdrawal password',
  withdrawalPasswordWrong: 'Withdrawal password is incorrect',
  invalidTxHash: 'Invalid transaction hash: expected 0x followed by 64 hex characters',
  notPending: 'This withdrawal has already been processed',
  hashUsedElsewhere: 'This transaction hash was already used for another withdrawal request',
  hashOtherWallet: 'This transaction hash was already used for a payout to another wallet',
  hashNotEnough: 'This transfer does not cover the withdrawals it is used for',
  notesTooLong: 'Notes must be at most 1000 characters',
} as const;

/** Texts when the chain does not prove the payout (approve with CHAIN_RPC_URL configured). */
export const PAYOUT_MSG = {
  notFound: 'Payout transaction not found on chain',
  reverted: 'Payout transaction failed (reverted) on chain',
  wrongToken: 'Payout transaction is not a USDC transfer',
  wrongSender: 'Payout was not sent from the platform payout address',
  wrongRecipient: "Payout was not sent to the withdrawal's wallet address",
  shortAmount: 'Payout amount is less than the net amount to pay',
  noPayoutAddress: 'Payout address is not configured on the server',
  unreachable: 'Could not reach the blockchain to verify the payout. Please try again.',
} as const;

const lower = (s: string) => s.toLowerCase();

export const requestAllBody = z.strictObject({
  walletAddress: requiredText(MSG.walletRequired, 200)
    .pipe(z.string().regex(EVM_ADDRESS, WITHDRAWAL_MSG.invalidWallet))
    .transform(lower),
  withdrawalPassword: z
    .string({ error: WITHDRAWAL_MSG.withdrawalPasswordRequired })
    .min(1, WITHDRAWAL_MSG.withdrawalPasswordRequired)
    .max(200, WITHDRAWAL_MSG.withdrawalPasswordWrong),
});
export type RequestAllInput = z.input<typeof requestAllBody>;

const notes = z
  .string()
  .trim()
  .max(1000, WITHDRAWAL_MSG.notesTooLong)
  .nullish()
  .transform((s) => (s ? s : null));

export const approveBody = z.strictObject({
  withdrawalId: idSchema,
  txHash: requiredText(MSG.txHashRequired, 200)
    .pipe(z.string().regex(TX_HASH, WITHDRAWAL_MSG.invalidTxHash))
    .transform(lower),
  notes,
});
export type ApproveInput = z.input<typeof approveBody>;

export const rejectBody = z.strictObject({ withdrawalId: idSchema, notes });
export type RejectInput = z.input<typeof rejectBody>;

export const populatedInvestment = z.object({ _id: z.string(), tier: z.string(), amount: usdc });
export const populatedUser = z.object({
  _id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
});

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

export const adminWithdrawalSchema = withdrawalSchema.extend({ userId: populatedUser.nullable() });
export type AdminWithdrawal = z.infer<typeof adminWithdrawalSchema>;

export const myWithdrawalsResponse = z.object({ withdrawals: z.array(withdrawalSchema) });

export const withdrawalCounts = z.object({ pending: z.number(), total: z.number() });

export const adminWithdrawalsQuery = z.strictObject({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  status: z.enum(WITHDRAWAL_STATUSES).optional(),
  t: z.string().max(30).optional(),
  _: z.string().max(30).optional(),
});
export type AdminWithdrawalsQuery = z.input<typeof adminWithdrawalsQuery>;

export const adminWithdrawalsResponse = z.object({
  withdrawals: z.array(adminWithdrawalSchema),
  pagination: pageInfo,
  counts: withdrawalCounts,
});
export type AdminWithdrawalsResponse = z.infer<typeof adminWithdrawalsResponse>;

export const withdrawalActionResponse = z.object({ message: z.string(), withdrawal: adminWithdrawalSchema });
