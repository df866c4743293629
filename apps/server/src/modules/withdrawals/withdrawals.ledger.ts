import type { Tx } from '../../db/client.ts';
import type { UserAccountKind } from '../../db/schema.ts';
import { postMany } from '../../ledger/ledger.ts';

export interface Hold {
  /** Withdrawal id: the ledger transaction's refId. */
  withdrawalId: string;
  from: Extract<UserAccountKind, 'earnings' | 'rewards' | 'balance'>;
  amount: bigint;
}

/**
 * One `withdrawal_hold` ledger transaction per withdrawal (source account -amount,
 * pending_withdrawal +amount), posted together in a constant number of statements.
 */
export async function postHolds(
  tx: Tx,
  userId: string,
  holds: Hold[],
  createdBy: string,
  insufficientMessage: string,
  createdAt: Date,
): Promise<void> {
  await postMany(
    tx,
    holds.map((h) => ({
      kind: 'withdrawal_hold',
      refId: h.withdrawalId,
      createdBy,
      createdAt,
      insufficientMessage,
      legs: [
        { account: { userId, kind: h.from }, amount: -h.amount },
        { account: { userId, kind: 'pending_withdrawal' }, amount: h.amount },
      ],
    })),
  );
}
