import * as z from 'zod/mini';

/**
 * GET /api/admin/solvency: what the platform owes its investors (from the ledger) against the USDC
 * its addresses hold on chain (as last read), in USDC. `coverage` is assets / liabilities (null
 * when nothing is owed); `asOf` is when the oldest balance was read (null before any reading).
 */
export const solvencyResponse = z.object({
  liabilities: z.number(),
  assets: z.object({ depositAddresses: z.number(), payoutAddress: z.number() }),
  coverage: z.nullable(z.number()),
  asOf: z.nullable(z.string()),
});
export type Solvency = z.infer<typeof solvencyResponse>;
