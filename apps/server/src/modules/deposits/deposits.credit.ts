import type { Tx } from '../../db/client.ts';
import { post } from '../../ledger/ledger.ts';
import * as q from './deposits.queries.ts';
import type { DepositRow } from './deposits.queries.ts';

/** Confirms a pending deposit and credits it, in the caller's transaction; null if it was not pending. */
export async function confirmAndCredit(
  tx: Tx,
  id: string,
  values: { processedAt: Date; processedBy?: string | null; logIndex?: number | null; confirmations?: number },
): Promise<DepositRow | null> {
  const row = await q.confirmIfPending(tx, id, values);
  if (!row) return null;
  await post(tx, {
    kind: 'deposit',
    refId: row.id,
    memo: row.txHash ? `deposit ${row.txHash}` : 'deposit',
    createdBy: values.processedBy ?? null,
    legs: [
      { account: { userId: row.userId, kind: 'balance' }, amount: row.amount },
      { account: { platform: 'platform_deposits' }, amount: -row.amount },
    ],
  });
  return row;
}
