import { englishOf, storedSaid, type Said } from '@harvest/shared/said';
import type { DepositFailureKind } from '@harvest/shared/schemas/deposits';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { post, postMany } from '../../ledger/ledger.ts';
import { queueMail, queueMails } from '../../mail/outbox.ts';
import * as q from './deposits.queries.ts';
import type { DepositRow } from './deposits.queries.ts';

/** What decides a pending deposit: credited once with the owner's receipt, or failed with the reason they read. */

/**
 * Confirms a pending deposit and credits it, in the caller's transaction, and queues the owner's
 * receipt there; null if it was not pending.
 */
export async function confirmAndCredit(
  ctx: AppContext,
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
    createdAt: values.processedAt,
    legs: [
      { account: { userId: row.userId, kind: 'balance' }, amount: row.amount },
      { account: { platform: 'platform_deposits' }, amount: -row.amount },
    ],
  });
  // Queued after the posting: the receipt quotes the balance this deposit made.
  await queueMail(tx, ctx, row.userId, {
    kind: 'deposit_confirmed',
    amount: row.amount,
    txHash: row.txHash,
    at: values.processedAt,
  });
  return row;
}

/** Fails a pending deposit with the reason its owner reads, and queues the owner's e-mail; null if not pending. */
export async function failPending(
  ctx: AppContext,
  tx: Tx,
  id: string,
  values: { reason: string | Said; kind: DepositFailureKind; processedAt: Date; processedBy?: string | null },
): Promise<DepositRow | null> {
  const row = await q.failIfPending(tx, id, {
    failureReason: englishOf(values.reason),
    failureSaid: storedSaid(values.reason),
    failureKind: values.kind,
    processedAt: values.processedAt,
    processedBy: values.processedBy ?? null,
  });
  if (!row) return null;
  await queueMail(tx, ctx, row.userId, {
    kind: 'deposit_failed',
    amount: row.amount,
    txHash: row.txHash,
    reason: englishOf(values.reason),
    reasonSaid: storedSaid(values.reason),
    at: values.processedAt,
  });
  return row;
}

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
