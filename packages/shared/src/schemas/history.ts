import * as z from 'zod/mini';
import { TEXT } from '../texts.ts';
import { isoDate, usdc } from './common.ts';
import type { DepositStatus } from './deposits.ts';
import type { WithdrawalStatus } from './withdrawals.ts';

/** The full history's fixed page: the web's pager and the server agree on it. */
export const HISTORY_PAGE_SIZE = 20;
/** A whole hash is 66 characters: room for it and a little more, never a paragraph. */
export const HISTORY_SEARCH_MAX = 100;

export const HISTORY_KINDS = ['deposit', 'withdrawal'] as const;
export type HistoryKind = (typeof HISTORY_KINDS)[number];
/** Every status a deposit or a withdrawal has (pending is both's). */
export type HistoryStatus = DepositStatus | WithdrawalStatus;
export const HISTORY_STATUSES = [
  'pending',
  'confirmed',
  'failed',
  'approved',
  'rejected',
] as const satisfies readonly HistoryStatus[];

/** GET /user/history: a page, optionally one status, optionally a hash or address (or its beginning). */
export const historyQuery = z.strictObject({
  page: z._default(
    z.coerce
      .number({ error: TEXT.historyPageInvalid })
      .check(
        z.int(TEXT.historyPageInvalid),
        z.gte(1, TEXT.historyPageInvalid),
        z.lte(1_000_000, TEXT.historyPageInvalid),
      ),
    1,
  ),
  status: z.optional(z.enum(HISTORY_STATUSES, TEXT.invalidStatusFilter)),
  q: z.optional(
    z
      .string({ error: TEXT.historySearchInvalid })
      .check(z.trim(), z.maxLength(HISTORY_SEARCH_MAX, TEXT.historySearchInvalid)),
  ),
});
export type HistoryQuery = z.input<typeof historyQuery>;

/** One deposit or withdrawal of the investor; `at` is when it was submitted or requested. */
export const historyItemSchema = z.object({
  _id: z.string(),
  kind: z.enum(HISTORY_KINDS),
  /** A withdrawal's gross amount. */
  amount: usdc,
  /** A withdrawal's fee (earnings carry 15%); null for deposits and fee-free withdrawals. */
  fee: z.nullable(usdc),
  status: z.enum(HISTORY_STATUSES),
  txHash: z.nullable(z.string()),
  /** The deposit's sending address, or the withdrawal's wallet. */
  address: z.nullable(z.string()),
  at: isoDate,
  processedAt: z.nullable(isoDate),
});
export type HistoryItem = z.infer<typeof historyItemSchema>;

export const historyResponse = z.object({
  items: z.array(historyItemSchema),
  page: z.number(),
  pageSize: z.number(),
  /** Rows matching the filter and search. */
  total: z.number(),
});
export type HistoryResponse = z.infer<typeof historyResponse>;
