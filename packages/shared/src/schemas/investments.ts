import * as z from 'zod/mini';
import { TEXT } from '../texts.ts';
import { parseUsdc } from '../money.ts';
import { idSchema, messageResponse, usdc } from './common.ts';
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
 * The amount stays as sent (a checked USDC number or decimal text) rather than a bigint, so the
 * body can be hashed for Idempotency-Key; the server parses it with parseUsdc.
 */
export const investBody = z.strictObject({
  amount: z
    .union([z.number({ error: TEXT.chooseTier }), z.string({ error: TEXT.chooseTier })], { error: TEXT.chooseTier })
    .check(z.refine((v) => parseUsdc(v) !== null, TEXT.chooseTier)),
});
export const investResponse = z.object({ message: z.string(), investment: investmentSchema });
export type InvestResponse = z.infer<typeof investResponse>;

export const investmentIdBody = z.strictObject({ investmentId: idSchema });
export const startEarningBody = investmentIdBody;
export const completeCycleBody = investmentIdBody;
export const startEarningResponse = messageResponse;
export const completeCycleResponse = messageResponse;
