import type { Tx } from '../../db/client.ts';
import { post, postMany, type PostInput } from '../../ledger/ledger.ts';
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
  await post(tx, depositPosting(row, values.processedBy ?? null));
  return row;
}

/** The ledger transaction of a credited deposit: the user's balance up, platform_deposits down. */
function depositPosting(row: DepositRow, createdBy: string | null): PostInput {
  return {
    kind: 'deposit',
    refId: row.id,
    memo: row.txHash ? `deposit ${row.txHash}` : 'deposit',
    createdBy,
    legs: [
      { account: { userId: row.userId, kind: 'balance' }, amount: row.amount },
      { account: { platform: 'platform_deposits' }, amount: -row.amount },
    ],
  };
}

/**
 * Confirms and credits many pending deposits in the caller's transaction (the chain watcher's
 * batch): the ones still pending are confirmed with their confirmations at `head`, and all of
 * them are posted through one postMany.
 */
export async function confirmAndCreditMany(
  tx: Tx,
  ids: string[],
  values: { processedAt: Date; head: bigint },
): Promise<DepositRow[]> {
  if (ids.length === 0) return [];
  const rows = await q.confirmManyIfPending(tx, ids, values);
  if (rows.length > 0)
    await postMany(
      tx,
      rows.map((r) => depositPosting(r, null)),
    );
  return rows;
}
