import { sql } from 'drizzle-orm';
import type { PostSet } from '../../ledger/ledger.ts';

/**
 * The holds of one Withdraw All request as a PostSet over its withdrawal rows: one
 * `withdrawal_hold` ledger transaction per withdrawal (its source account -amount,
 * pending_withdrawal +amount), booked at the request time, posted in a constant number of statements.
 */
export function holdsOf(requestId: string, userId: string, insufficientMessage: string): PostSet {
  const from = (source: string) => sql`CASE WHEN w.source = ${source} THEN -w.amount ELSE 0 END`;
  return {
    kind: 'withdrawal_hold',
    from: sql`withdrawals w`,
    where: sql`w.request_id = ${requestId}::uuid AND w.user_id = ${userId}::uuid`,
    refId: sql`w.id`,
    createdBy: sql`w.user_id`,
    createdAt: sql`w.requested_at`,
    insufficientMessage,
    legs: [
      { account: { userId: sql`w.user_id`, kind: 'earnings' }, amount: from('earning') },
      { account: { userId: sql`w.user_id`, kind: 'rewards' }, amount: from('rewards') },
      { account: { userId: sql`w.user_id`, kind: 'balance' }, amount: from('balance') },
      { account: { userId: sql`w.user_id`, kind: 'pending_withdrawal' }, amount: sql`w.amount` },
    ],
  };
}
