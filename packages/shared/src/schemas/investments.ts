import { z } from 'zod';
import { parseUsdc } from '../money.ts';
import { idSchema, messageResponse, usdc } from './common.ts';
import { investmentSchema } from './dashboard.ts';

/** Server texts of the investment calls the spec leaves open (DOMAIN.md: clear, actionable). */
export const INVEST_MSG = {
  chooseTier: 'Please choose an investment tier',
  noSuchTier: 'No active investment tier has this amount. Please choose one of the listed tiers.',
  insufficientBalance: 'Insufficient balance. Please deposit USDC before investing.',
  invested: 'Investment successful',
  weekdayStart: 'Earning cycles can only be started Monday through Friday. Please try again on a weekday.',
  cycleRunning: 'An earning cycle is already running for this investment.',
  alreadyToday: 'This investment already started a cycle today. Please start the next cycle tomorrow.',
  started: 'Earning cycle started. Come back in 8 hours to complete it.',
  notRunning: 'No earning cycle is running for this investment. Please start earning first.',
} as const;

/** "2h 5m" style remaining time, rounded up to the minute. */
export function timeLeftText(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h > 0 ? `${h}h ${m}m` : `${m}m`;
}

export const cooldownText = (ms: number) =>
  `The next cycle becomes available 48 hours after your approved withdrawal: ${timeLeftText(ms)} left.`;
export const cycleNotFinishedText = (ms: number) => `This cycle is not finished yet: ${timeLeftText(ms)} left.`;
export const cycleCompletedText = (grossUsdc: string) => `Cycle completed: ${grossUsdc} USDC earned.`;

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
    .union([z.number({ error: INVEST_MSG.chooseTier }), z.string({ error: INVEST_MSG.chooseTier })], {
      error: INVEST_MSG.chooseTier,
    })
    .refine((v) => parseUsdc(v) !== null, INVEST_MSG.chooseTier),
});
export const investResponse = z.object({ message: z.string(), investment: investmentSchema });
export type InvestResponse = z.infer<typeof investResponse>;

export const investmentIdBody = z.strictObject({ investmentId: idSchema });
export const startEarningBody = investmentIdBody;
export const completeCycleBody = investmentIdBody;
export const startEarningResponse = messageResponse;
export const completeCycleResponse = messageResponse;
