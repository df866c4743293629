import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { LEDGER_FIGURES, figureRows, rollupsOf, totalsOf, type LedgerTxKind } from './ledger.ts';

/**
 * The figures the stored postings imply (LEDGER_FIGURES): what postMany added, transaction by transaction,
 * recomputed from the entries. The rebuild writes them; ledger:check compares the kept rows with them.
 */
function storedFigures(): SQL {
  const kinds = Object.keys(LEDGER_FIGURES) as LedgerTxKind[];
  const fig = figureRows(
    sql`SELECT t.kind, t.ref_id, t.created_at AS at, a.user_id, a.kind AS account, e.amount
        FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id JOIN ledger_accounts a ON a.id = e.account_id
        WHERE t.kind IN (${sql.join(
          kinds.map((k) => sql`${k}`),
          sql`, `,
        )})`,
    kinds,
  );
  if (!fig) throw new Error('no ledger figures');
  return fig;
}

/**
 * Rebuilds every user's totals and the daily rollups from the postings (at start for a new platform time zone
 * or a changed LEDGER_FIGURES: syncRollupTimezone; after a bulk load). Postings wait for it: they add to what
 * it writes.
 */
export async function rebuildLedgerFigures(tx: Tx): Promise<void> {
  await tx.execute(sql`LOCK TABLE user_totals, rollups IN SHARE ROW EXCLUSIVE MODE`);
  await tx.execute(sql`DELETE FROM user_totals`);
  await tx.execute(sql`DELETE FROM rollups`);
  await tx.execute(sql`WITH fig AS MATERIALIZED (${storedFigures()}),
      totals AS (INSERT INTO user_totals (user_id, earnings, referral_rewards, deposits, adjustments)
        SELECT * FROM (${totalsOf(sql`SELECT * FROM fig`)}) s)
    INSERT INTO rollups (metric, day, slot, n) SELECT * FROM (${rollupsOf(sql`SELECT * FROM fig`)}) s WHERE n <> 0`);
}

/** ledger:check: users whose user_totals row differs from the sums of their postings (no row reads as zeros). */
export const USER_TOTALS_CHECK = sql`WITH p AS (${totalsOf(storedFigures())})
  SELECT coalesce(p.user_id, t.user_id)::text || ': kept ' ||
         concat_ws('/', coalesce(t.earnings, 0), coalesce(t.referral_rewards, 0), coalesce(t.deposits, 0), coalesce(t.adjustments, 0)) ||
         ', postings ' ||
         concat_ws('/', coalesce(p.earnings, 0), coalesce(p.referral_rewards, 0), coalesce(p.deposits, 0), coalesce(p.adjustments, 0)) ||
         ' (earnings/rewards/deposits/adjustments)' AS detail
  FROM p FULL JOIN user_totals t ON t.user_id = p.user_id
  WHERE (coalesce(t.earnings, 0), coalesce(t.referral_rewards, 0), coalesce(t.deposits, 0), coalesce(t.adjustments, 0))
     <> (coalesce(p.earnings, 0), coalesce(p.referral_rewards, 0), coalesce(p.deposits, 0), coalesce(p.adjustments, 0))
  ORDER BY 1`;

/** ledger:check: daily rollups that differ from the sums of the postings, per metric, platform day and slot. */
export const ROLLUP_CHECK = sql`WITH p AS (${rollupsOf(storedFigures())})
  SELECT coalesce(p.metric, r.metric) || ' ' || coalesce(p.day, r.day) || ' slot ' || coalesce(p.slot, r.slot)
         || ': postings ' || coalesce(p.n, 0) || ', rollup ' || coalesce(r.n, 0) AS detail
  FROM p FULL JOIN rollups r ON r.metric = p.metric AND r.day = p.day AND r.slot = p.slot
  WHERE coalesce(p.n, 0) <> coalesce(r.n, 0)
  ORDER BY 1`;
