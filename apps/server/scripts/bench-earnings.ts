import { sql } from 'drizzle-orm';
import type { Db } from '../src/db/client.ts';
import { inTransaction } from '../src/db/tx.ts';
import { postMany, rowTransfers } from '../src/ledger/ledger.ts';

/** Gives a prepared user `n` unrequested cycle earnings of 1.5 USDC on one investment, ledger included. */
export async function addEarnings(db: Db, userId: string, investmentId: string, n: number): Promise<void> {
  // Cycle numbers above any existing one (a database may be benchmarked more than once).
  // Ids as the app makes them (hf_owner_uuid: the owner's first bytes, decision 0058).
  await db.execute(sql`INSERT INTO cycle_earnings (id, investment_id, user_id, cycle_number, gross_amount, created_at)
    SELECT hf_owner_uuid(${userId}::uuid), ${investmentId}::uuid, ${userId}::uuid, GREATEST(100000, (SELECT max(cycle_number) FROM cycle_earnings WHERE investment_id = ${investmentId}::uuid)) + g,
      1500000, now() - interval '1 day' FROM generate_series(1, ${n}) g`);
  await inTransaction(db, (tx) =>
    postMany(
      tx,
      rowTransfers('cycle_earning', 'cycle_earnings', {
        where: sql`t.investment_id = ${investmentId}::uuid AND t.cycle_number > 100000
          AND NOT EXISTS (SELECT 1 FROM ledger_transactions x WHERE x.kind = 'cycle_earning' AND x.ref_id = t.id::text)`,
        amount: sql`t.gross_amount`,
        from: 'platform_earning_expense',
        to: 'earnings',
      }),
    ),
  );
  await db.execute(
    sql`UPDATE investments SET total_earned = total_earned + ${BigInt(n) * 1500000n} WHERE id = ${investmentId}::uuid`,
  );
}
