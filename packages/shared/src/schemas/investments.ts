import * as z from 'zod/mini';
import { TEXT } from '../texts.ts';
import { idSchema, messageResponse, usdc, usdcAmount } from './common.ts';
import { investmentSchema } from './dashboard.ts';

/** An investment tier as investors see it (the spec's Investment tier entity). */
export const tierSchema = z.object({
  _id: z.string(),
  name: z.string(),
  amount: usdc,
  /** Daily rate in percent (1.5 = 1.5%). */
  dailyRate: z.number(),
});
export type Tier = z.infer<typeof tierSchema>;

export const tiersResponse = z.object({ tiers: z.array(tierSchema) });
export type TiersResponse = z.infer<typeof tiersResponse>;

/**
 * The tier the investor confirmed: `tierId` (its `_id`) with the spec's `amount`, and optionally the
 * `dailyRate` the dialog showed; the server refuses a tier that no longer has these terms. `amount`
 * alone (the spec's call) must fit exactly one active tier. The amount is parsed into micro-USDC here,
 * so `100`, `"100"` and `"100.000000"` are one request (also for its Idempotency-Key).
 */
export const investBody = z.strictObject({
  amount: usdcAmount(TEXT.chooseTier),
  tierId: z.optional(idSchema),
  dailyRate: z.optional(z.number({ error: TEXT.tierChanged })),
});
export type InvestInput = z.input<typeof investBody>;
export const investResponse = z.object({ message: z.string(), investment: investmentSchema });
export type InvestResponse = z.infer<typeof investResponse>;

export const investmentIdBody = z.strictObject({ investmentId: idSchema });
export const startEarningBody = investmentIdBody;
export const completeCycleBody = investmentIdBody;
export const startEarningResponse = messageResponse;
export const completeCycleResponse = messageResponse;
