import type { PostInput } from '../../ledger/ledger.ts';
import type { WithdrawAllMade } from './withdrawals.queries.ts';

/**
 * The hold of one Withdraw All request: one `withdrawal_request_hold` ledger transaction (ref = the
 * request id) moving what the request's withdrawals took from each source account (earnings, rewards,
 * balance) into pending_withdrawal, booked at the request time. It is the one hold of every withdrawal
 * of the request; each withdrawal's payout or release stays its own transaction (ref = the withdrawal
 * id). ledger:check proves that a hold moves exactly its withdrawals' amounts
 * (docs/decisions/0053-withdraw-all-one-hold.md).
 */
export function requestHold(
  o: { requestId: string; userId: string; at: Date; held: WithdrawAllMade['held'] },
  insufficientMessage: string,
): PostInput {
  const sources = (['earnings', 'rewards', 'balance'] as const).filter((kind) => o.held[kind] > 0n);
  const total = sources.reduce((s, kind) => s + o.held[kind], 0n);
  return {
    kind: 'withdrawal_request_hold',
    refId: o.requestId,
    createdBy: o.userId,
    createdAt: o.at,
    insufficientMessage,
    legs: [
      ...sources.map((kind) => ({ account: { userId: o.userId, kind }, amount: -o.held[kind] })),
      { account: { userId: o.userId, kind: 'pending_withdrawal' as const }, amount: total },
    ],
  };
}
