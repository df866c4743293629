import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { postMany } from '../../ledger/ledger.ts';
import { queueMails } from '../../mail/outbox.ts';
import * as q from './deposits.queries.ts';
import type { DepositRow } from './deposits.queries.ts';

/**
 * Confirms and credits many pending deposits in the caller's transaction (the chain watcher's
 * batch): the ones still pending are confirmed with their confirmations at `head`, posted through
 * one postMany, and each owner's receipt is queued in the same transaction.
 */
export async function confirmAndCreditMany(
  ctx: AppContext,
  tx: Tx,
  ids: string[],
  values: { processedAt: Date; head: bigint },
): Promise<DepositRow[]> {
  if (ids.length === 0) return [];
  const rows = await q.confirmManyIfPending(tx, ids, values);
  if (rows.length === 0) return rows;
  await postMany(
    tx,
    rows.map((row) => ({
      kind: 'deposit' as const,
      refId: row.id,
      memo: `deposit ${row.txHash ?? ''}`.trim(),
      createdBy: null,
      createdAt: values.processedAt,
      legs: [
        { account: { userId: row.userId, kind: 'balance' as const }, amount: row.amount },
        { account: { platform: 'platform_deposits' as const }, amount: -row.amount },
      ],
    })),
  );
  await queueMails(
    tx,
    ctx,
    rows.map((row) => ({
      userId: row.userId,
      event: { kind: 'deposit_confirmed' as const, amount: row.amount, txHash: row.txHash, at: values.processedAt },
    })),
  );
  return rows;
}
