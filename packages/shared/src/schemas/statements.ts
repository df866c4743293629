import * as z from 'zod/mini';
import { STATEMENT_MAX_DAYS } from '../constants.ts';
import { TEXT } from '../texts.ts';
import { isoDate, usdc } from './common.ts';

/**
 * A statement of account: the money an investor holds with the platform outside their
 * invested principal (balance, rewards, earnings and pending withdrawals; docs/decisions/0073), at the
 * start and end of a period of platform calendar days (PLATFORM_TIMEZONE), and every movement between.
 */

export const STATEMENT_FORMATS = ['json', 'csv', 'pdf'] as const;
export type StatementFormat = (typeof STATEMENT_FORMATS)[number];

/** What a line of a statement is: its description and the way it is shown come from its kind. */
export const STATEMENT_MOVEMENT_KINDS = [
  'deposit',
  'investment',
  'cycle_earning',
  'referral_reward',
  'withdrawal',
  'withdrawal_fee',
  'adjustment',
  'other',
] as const;
export type StatementMovementKind = (typeof STATEMENT_MOVEMENT_KINDS)[number];

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days since 1970-01-01 of a calendar day written YYYY-MM-DD, or null when it is not a real day (2026-02-30). */
export function dayNumber(day: string): number | null {
  const m = DAY.exec(day);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const at = new Date(Date.UTC(y, mo - 1, d));
  if (y < 1970 || at.getUTCFullYear() !== y || at.getUTCMonth() !== mo - 1 || at.getUTCDate() !== d) return null;
  return at.getTime() / 86_400_000;
}

/** The first and last day of the month holding `day` (YYYY-MM-DD). */
export function monthOf(day: string): { from: string; to: string } {
  const [y = 1970, m = 1] = day.split('-').map(Number);
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const mm = String(m).padStart(2, '0');
  return { from: `${y}-${mm}-01`, to: `${y}-${mm}-${String(last).padStart(2, '0')}` };
}

const day = z.string({ error: TEXT.statementDate }).check(z.refine((v) => dayNumber(v) !== null, TEXT.statementDate));

/**
 * GET /api/user/statement and GET /api/admin/users/:id/statement: `from` and `to` (platform days), or neither for
 * the current month of the platform's calendar.
 */
export const statementQuery = z
  .strictObject({
    from: z.optional(day),
    to: z.optional(day),
    format: z._default(z.enum(STATEMENT_FORMATS, { error: TEXT.statementFormat }), 'json'),
  })
  .check(
    z.superRefine((v, ctx) => {
      if (v.from === undefined || v.to === undefined) {
        if (v.from !== v.to)
          ctx.addIssue({ code: 'custom', message: TEXT.statementDate, path: [v.from ? 'to' : 'from'], input: v });
        return;
      }
      const span = (dayNumber(v.to) ?? 0) - (dayNumber(v.from) ?? 0);
      if (span < 0) ctx.addIssue({ code: 'custom', message: TEXT.statementOrder, path: ['to'], input: v });
      else if (span + 1 > STATEMENT_MAX_DAYS)
        ctx.addIssue({ code: 'custom', message: TEXT.statementTooLong, path: ['to'], input: v });
    }),
  );
export type StatementQuery = z.input<typeof statementQuery>;

export const statementMovement = z.object({
  /** When it was booked in the ledger. */
  at: isoDate,
  kind: z.enum(STATEMENT_MOVEMENT_KINDS),
  description: z.string(),
  /** The on-chain transaction hash of a deposit or payout, else the id of the record that caused it. */
  reference: z.string(),
  /** Signed: money in is positive. */
  amount: usdc,
  /** The balance after this movement. */
  balance: usdc,
});
export type StatementMovement = z.infer<typeof statementMovement>;

export const statementResponse = z.object({
  from: z.string(),
  to: z.string(),
  timeZone: z.string(),
  generatedAt: isoDate,
  investor: z.object({ name: z.string(), email: z.string() }),
  openingBalance: usdc,
  moneyIn: usdc,
  moneyOut: usdc,
  closingBalance: usdc,
  movements: z.array(statementMovement),
});
export type Statement = z.infer<typeof statementResponse>;
