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
  atMost,
  saidFields,
  usdc,
} from './common.ts';
import { userRefSchema } from './user.ts';
import { assertionSchema } from './passkeys.ts';

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
  /** With the authenticator on, Withdraw All asks for its code (or a recovery code). */
  totpCode: z.optional(z.string().check(z.trim(), z.maxLength(MAX_LENGTH.authCode))),
  /** With a passkey registered: its assertion for this address, total and list (POST /api/user/step-up). */
  passkey: z.optional(assertionSchema),
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
  /** The token refuses transfers to the wallet (USDC's blacklist): it cannot be paid there; choose another address. */
  payeeRefused: z.boolean(),
});
export type Withdrawal = z.infer<typeof withdrawalSchema>;

/**
 * Every admin view of a withdrawal: the requester populated (spec: userId with firstName, lastName, email), the
 * payout batch that holds it in payment (null: none; the investor still sees pending), until when when that batch was
 * cancelled after its file was downloaded, whether its account's withdrawals are frozen (it cannot be paid), and
 * whether its destination is proven by its wallet.
 */
export const adminWithdrawalSchema = z.extend(withdrawalSchema, {
  userId: userRefSchema,
  batchId: z.nullable(z.string()),
  inPaymentUntil: z.nullable(isoDate),
  frozen: z.boolean(),
  /** Its wallet address is in the investor's book, proven by the wallet that owns it (EIP-191 / EIP-1271). */
  addressProven: z.boolean(),
});
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

// ---------------------------------------------------------------- payouts found on chain, payout batches

/** Most withdrawals one batch or one found payout takes. */
export const MAX_BATCH_WITHDRAWALS = 500;
const withdrawalIds = z
  .array(idSchema)
  .check(
    z.minLength(1, TEXT.batchEmpty),
    atMost<string[]>(MAX_BATCH_WITHDRAWALS, TEXT.batchTooLarge(MAX_BATCH_WITHDRAWALS)),
  );

/** A pending withdrawal a found payout could pay, as the administrator chooses among them. */
export const payableWithdrawalSchema = z.object({
  _id: z.string(),
  requestId: z.string(),
  netAmount: usdc,
  source: z.enum(WITHDRAWAL_SOURCES),
  cycleNumber: z.nullable(z.number()),
  requestedAt: isoDate,
});

/**
 * A USDC transfer out of the payout address the watcher read in a deep block that it could not settle by itself:
 * `ambiguous` (several sets of pending withdrawals to that wallet add up to it: `candidates`) or `unmatched` (none).
 */
export const foundPayoutSchema = z.object({
  _id: z.string(),
  txHash: z.string(),
  logIndex: z.number(),
  walletAddress: z.string(),
  amount: usdc,
  blockNumber: z.number(),
  /** held: it paid a frozen account's withdrawals, which are not completed by it until an administrator decides. */
  status: z.enum(['ambiguous', 'unmatched', 'held']),
  detail: z.nullable(z.string()),
  candidates: z.array(z.array(z.string())),
  pendingToWallet: z.array(payableWithdrawalSchema),
});
export type FoundPayout = z.infer<typeof foundPayoutSchema>;
export const foundPayoutsResponse = z.object({ payouts: z.array(foundPayoutSchema) });
export const assignPayoutBody = z.strictObject({ withdrawalIds });

export const BATCH_STATUSES = ['open', 'cancelled', 'completed'] as const;
export const payoutBatchSchema = z.object({
  _id: z.string(),
  status: z.enum(BATCH_STATUSES),
  /** One transfer per request rather than one per withdrawal. */
  grouped: z.boolean(),
  token: z.string(),
  createdAt: isoDate,
  closedAt: z.nullable(isoDate),
  withdrawals: z.number(),
  /** Still pending (in payment); the others were completed (or, after a cancelled batch's grace, rejected). */
  pending: z.number(),
  transfers: z.number(),
  /** The net amounts it asks for: its withdrawals still pending or completed by it (never a rejected one). */
  total: usdc,
  /** What it paid: the net amounts of its withdrawals completed. */
  paid: usdc,
  /** Pending withdrawals in it that its file leaves out: accounts frozen, or wallets the token refuses. */
  frozen: z.number(),
  refused: z.number(),
  /** First download of its file (a cancel must then be confirmed), and until when a cancelled one stays in payment. */
  downloadedAt: z.nullable(isoDate),
  graceUntil: z.nullable(isoDate),
});
export type PayoutBatch = z.infer<typeof payoutBatchSchema>;
export const createBatchBody = z.strictObject({
  withdrawalIds,
  grouped: z.boolean({ error: TEXT.batchGroupedRequired }),
});
export type CreateBatchInput = z.input<typeof createBatchBody>;
/** Cancelling a batch whose file was downloaded: the administrator confirms it was not and will not be executed. */
export const cancelBatchBody = z.nullish(z.strictObject({ confirmNotExecuted: z.optional(z.boolean()) }));
export const payoutBatchResponse = z.object({ message: z.string(), ...saidFields, batch: payoutBatchSchema });
export const payoutBatchesResponse = z.object({ batches: z.array(payoutBatchSchema) });
