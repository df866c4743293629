import * as z from 'zod/mini';

/** What a reconciliation of money in and out against the chain can find (docs/OPERATIONS.md explains each). */
export const DIFFERENCE_KINDS = [
  /** A credited deposit whose transfer is not on the chain. */
  'unbacked',
  /** The chain's transfer differs from what was credited (amount, recipient, sender or token). */
  'differs',
  /** Credited from a block that is not DEPOSIT_CONFIRMATIONS deep. */
  'too_shallow',
  /** A transfer to a handed-out deposit address neither credited nor shown to its investor. */
  'missed',
  /** Withdrawals approved with a payout transaction that does not carry their net amounts to their wallet. */
  'unpaid',
  /** A USDC transfer out of PAYOUT_ADDRESS that no approved withdrawal accounts for. */
  'unmatched_payout',
  /** A transfer out of PAYOUT_ADDRESS to a wallet whose withdrawal of that amount was rejected: paid after all. */
  'paid_after_rejection',
  /** A payout transaction carried more to a wallet than the withdrawals approved with it. */
  'overpaid',
  /** USDC left an investor's deposit address for somewhere other than TREASURY_ADDRESS. */
  'sweep_elsewhere',
] as const;
export type DifferenceKind = (typeof DIFFERENCE_KINDS)[number];

export const differenceSchema = z.object({
  kind: z.enum(DIFFERENCE_KINDS),
  depositId: z.nullable(z.string()),
  userId: z.nullable(z.string()),
  address: z.nullable(z.string()),
  txHash: z.nullable(z.string()),
  logIndex: z.nullable(z.number()),
  /** USDC the chain says, and USDC credited (null where there is none). */
  chainAmount: z.nullable(z.number()),
  creditedAmount: z.nullable(z.number()),
  detail: z.string(),
});
export type Difference = z.infer<typeof differenceSchema>;

export const RECONCILIATION_STATUSES = ['running', 'clean', 'differences', 'failed'] as const;

export const reconciliationSchema = z.object({
  _id: z.string(),
  /** daily (the background job), admin (an administrator asked), cli (npm run chain:reconcile). */
  trigger: z.string(),
  status: z.enum(RECONCILIATION_STATUSES),
  startedAt: z.string(),
  finishedAt: z.nullable(z.string()),
  /** The chain was compared up to this block. */
  throughBlock: z.nullable(z.number()),
  /** Credited deposits, transfers to deposit addresses, addresses, and transfers out (payout and deposit addresses). */
  checked: z.object({ deposits: z.number(), transfers: z.number(), addresses: z.number(), payouts: z.number() }),
  differenceCount: z.number(),
  /** The first differences found. */
  differences: z.array(differenceSchema),
  error: z.nullable(z.string()),
});
export type Reconciliation = z.infer<typeof reconciliationSchema>;

export const chainAlarmSchema = z.object({
  _id: z.string(),
  kind: z.string(),
  detail: z.string(),
  blockNumber: z.nullable(z.number()),
  createdAt: z.string(),
});
export type ChainAlarm = z.infer<typeof chainAlarmSchema>;

/**
 * GET /api/admin/solvency: what the platform owes its investors (from the ledger) against the USDC its
 * addresses hold on chain (as last read), in USDC. `coverage` is assets / liabilities: null until the
 * balances have been read once, and when nothing is owed; `asOf` is when the oldest balance was read.
 * `watcher` is the chain watcher's last good pass (null when it does not run), `reconciliation`
 * the last run against the chain, `alarms` what the chain checks left for an operator.
 */
export const solvencyResponse = z.object({
  liabilities: z.number(),
  assets: z.object({ depositAddresses: z.number(), payoutAddress: z.number(), treasury: z.number() }),
  coverage: z.nullable(z.number()),
  asOf: z.nullable(z.string()),
  /**
   * How old the oldest on-chain reading is on the platform clock (null before one), and whether it is past
   * `staleAfterSeconds`: then the coverage may not be what the chain holds now.
   */
  readingAge: z.nullable(z.object({ seconds: z.number(), stale: z.boolean(), staleAfterSeconds: z.number() })),
  watcher: z.nullable(
    z.object({ checkedAt: z.nullable(z.string()), headBlock: z.nullable(z.number()), cursorBlock: z.number() }),
  ),
  /** The newest sweep the watcher read: out of investors' addresses to TREASURY_ADDRESS, in one block. */
  lastSweep: z.nullable(
    z.object({ blockNumber: z.number(), addresses: z.number(), total: z.number(), at: z.string() }),
  ),
  reconciliation: z.nullable(reconciliationSchema),
  alarms: z.array(chainAlarmSchema),
  /**
   * Money that left the platform's addresses without the books releasing it, as the watcher read it: transfers out
   * of the payout wallet no withdrawal accounts for (unmatched, ambiguous or held), and deposit funds moved anywhere
   * but the treasury. Already gone from the assets above; shown so that the loss is seen, not only felt.
   */
  unexplainedOutflow: z.object({ payoutWallet: z.number(), depositAddresses: z.number() }),
});
export type Solvency = z.infer<typeof solvencyResponse>;

export const reconciliationResponse = z.object({ message: z.string(), reconciliation: reconciliationSchema });
