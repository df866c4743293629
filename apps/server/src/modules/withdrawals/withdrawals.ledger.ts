import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rawRows } from '../../db/raw.ts';
import { ledgerEntries, ledgerTransactions, type UserAccountKind } from '../../db/schema.ts';
import { InsufficientFunds } from '../../ledger/ledger.ts';

export interface Hold {
  /** Withdrawal id: the ledger transaction's refId. */
  withdrawalId: string;
  from: Extract<UserAccountKind, 'earnings' | 'rewards' | 'balance'>;
  amount: bigint;
}

/**
 * Posts many `withdrawal_hold` transactions for one user in a constant number of statements:
 * one ledger transaction per withdrawal (two entries: source account -amount,
 * pending_withdrawal +amount), the cached balances updated once, a negative balance refused.
 * Same semantics as ledger.post() called once per hold; the caller must already hold the
 * user's account locks (lockUserAccounts) and check.ts verifies the result like any post.
 */
export async function postHolds(tx: Db, userId: string, holds: Hold[], createdBy: string, insufficientMessage: string): Promise<void> {
  if (holds.length === 0) return;
  if (holds.some((h) => h.amount <= 0n)) throw new Error('A hold must move a positive amount');

  const accounts = await rawRows<{ id: number | string; kind: UserAccountKind; balance: bigint | string }>(
    tx,
    sql`SELECT id, kind, balance FROM ledger_accounts WHERE user_id = ${userId}::uuid ORDER BY id FOR UPDATE`,
  );
  const byKind = new Map(accounts.map((a) => [a.kind, { id: Number(a.id), balance: BigInt(a.balance) }]));
  const pending = byKind.get('pending_withdrawal');
  if (!pending) throw new Error('Ledger account missing: pending_withdrawal');

  const delta = new Map<number, bigint>();
  const add = (id: number, amount: bigint) => delta.set(id, (delta.get(id) ?? 0n) + amount);
  for (const h of holds) {
    const src = byKind.get(h.from);
    if (!src) throw new Error(`Ledger account missing: ${h.from}`);
    add(src.id, -h.amount);
    add(pending.id, h.amount);
  }
  for (const a of byKind.values()) if (a.balance + (delta.get(a.id) ?? 0n) < 0n) throw new InsufficientFunds(insufficientMessage);

  const changes = [...delta].filter(([, d]) => d !== 0n).map(([id, d]) => sql`(${id}::bigint, ${d}::bigint)`);
  await tx.execute(sql`UPDATE ledger_accounts AS a SET balance = a.balance + v.delta FROM (VALUES ${sql.join(changes, sql`, `)}) AS v(id, delta) WHERE a.id = v.id`);

  for (let i = 0; i < holds.length; i += 1000) {
    const part = holds.slice(i, i + 1000);
    const inserted = await tx
      .insert(ledgerTransactions)
      .values(part.map((h) => ({ kind: 'withdrawal_hold', refId: h.withdrawalId, memo: null, createdBy })))
      .returning({ id: ledgerTransactions.id, refId: ledgerTransactions.refId });
    const txIdByRef = new Map(inserted.map((r) => [r.refId, r.id]));
    const entries = part.flatMap((h) => {
      const transactionId = txIdByRef.get(h.withdrawalId);
      const src = byKind.get(h.from);
      if (transactionId === undefined || !src) throw new Error('ledger hold not inserted');
      return [
        { transactionId, accountId: src.id, amount: -h.amount },
        { transactionId, accountId: pending.id, amount: h.amount },
      ];
    });
    await tx.insert(ledgerEntries).values(entries);
  }
}
