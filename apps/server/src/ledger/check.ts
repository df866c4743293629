import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rawRows } from '../db/raw.ts';
import { ROLLUP_CHECK, USER_TOTALS_CHECK } from './figures.ts';
import { checkChain } from './hash-chain.ts';

export interface Violation {
  rule: string;
  detail: string;
}

/**
 * The ledger's invariants (docs/DOMAIN.md, Ledger). Each query returns the rows that break a rule;
 * an empty result everywhere means the books balance.
 */
const RULES: { rule: string; query: ReturnType<typeof sql> }[] = [
  {
    rule: 'transaction sums to zero',
    query: sql`SELECT t.id::text AS detail FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id GROUP BY t.id HAVING SUM(e.amount) <> 0`,
  },
  {
    rule: 'transaction has at least two entries',
    query: sql`SELECT t.id::text AS detail FROM ledger_transactions t LEFT JOIN ledger_entries e ON e.transaction_id = t.id GROUP BY t.id HAVING COUNT(e.id) < 2`,
  },
  {
    rule: 'cached balance equals the sum of entries',
    query: sql`SELECT a.id || ' ' || a.kind || ' cached=' || a.balance || ' entries=' || COALESCE(s.total, 0) AS detail
      FROM ledger_accounts a LEFT JOIN (SELECT account_id, SUM(amount) AS total FROM ledger_entries GROUP BY account_id) s ON s.account_id = a.id
      WHERE a.user_id IS NOT NULL AND a.balance <> COALESCE(s.total, 0)`,
  },
  {
    rule: 'platform accounts keep no cached balance',
    query: sql`SELECT a.id || ' ' || a.kind AS detail FROM ledger_accounts a WHERE a.user_id IS NULL AND a.balance <> 0`,
  },
  {
    rule: 'no user account is negative',
    query: sql`SELECT a.id || ' ' || a.kind AS detail FROM ledger_accounts a WHERE a.user_id IS NOT NULL AND a.balance < 0`,
  },
  {
    rule: 'every deposit that counts has exactly one ledger transaction',
    query: sql`SELECT d.id::text AS detail FROM deposits d LEFT JOIN ledger_transactions t ON t.kind = 'deposit' AND t.ref_id = d.id::text
      WHERE hf_deposit_counts(d.status, d.type) GROUP BY d.id HAVING COUNT(t.id) <> 1`,
  },
  {
    rule: 'no deposit that does not count has a ledger transaction',
    query: sql`SELECT d.id::text AS detail FROM deposits d JOIN ledger_transactions t ON t.kind = 'deposit' AND t.ref_id = d.id::text
      WHERE NOT hf_deposit_counts(d.status, d.type)`,
  },
  {
    // The figures (user totals, daily rollups) are sums of these entries: so they are sums of the rows too.
    rule: "each deposit, investment, cycle earning, referral reward and adjustment moves its amount on its owner's account",
    query: sql`WITH rows(kind, ref_id, user_id, account, amount) AS (
        SELECT 'deposit', id::text, user_id, 'balance', amount FROM deposits WHERE hf_deposit_counts(status, type)
        UNION ALL SELECT 'investment', id::text, user_id, 'invested', amount FROM investments
        UNION ALL SELECT 'cycle_earning', id::text, user_id, 'earnings', gross_amount FROM cycle_earnings WHERE gross_amount <> 0
        UNION ALL SELECT 'referral_reward', id::text, user_id, 'rewards', amount FROM referral_rewards
        UNION ALL SELECT 'admin_adjustment', id::text, user_id, 'balance', amount FROM balance_adjustments),
      booked AS (
        SELECT t.kind, t.ref_id, a.user_id, a.kind AS account, sum(e.amount) AS amount FROM ledger_transactions t
        JOIN ledger_entries e ON e.transaction_id = t.id JOIN ledger_accounts a ON a.id = e.account_id AND a.user_id IS NOT NULL
        JOIN rows r ON r.kind = t.kind AND r.ref_id = t.ref_id AND r.account = a.kind GROUP BY 1, 2, 3, 4)
      SELECT r.kind || ' ' || r.ref_id || ' amount=' || r.amount || ' booked=' || coalesce(b.amount, 0) AS detail
      FROM rows r LEFT JOIN booked b ON b.kind = r.kind AND b.ref_id = r.ref_id AND b.user_id = r.user_id
      WHERE b.amount IS DISTINCT FROM r.amount`,
  },
  {
    rule: 'every investment has exactly one ledger transaction',
    query: sql`SELECT i.id::text AS detail FROM investments i LEFT JOIN ledger_transactions t ON t.kind = 'investment' AND t.ref_id = i.id::text GROUP BY i.id HAVING COUNT(t.id) <> 1`,
  },
  {
    rule: 'every cycle earning has exactly one ledger transaction',
    query: sql`SELECT c.id::text AS detail FROM cycle_earnings c LEFT JOIN ledger_transactions t ON t.kind = 'cycle_earning' AND t.ref_id = c.id::text
      WHERE c.gross_amount > 0 GROUP BY c.id HAVING COUNT(t.id) <> 1`,
  },
  {
    rule: 'every referral reward has exactly one ledger transaction',
    query: sql`SELECT r.id::text AS detail FROM referral_rewards r LEFT JOIN ledger_transactions t ON t.kind = 'referral_reward' AND t.ref_id = r.id::text GROUP BY r.id HAVING COUNT(t.id) <> 1`,
  },
  {
    // Held by its own `withdrawal_hold` (ref = the withdrawal; fixtures, and Withdraw All's older rows)
    // or by its request's `withdrawal_request_hold` (ref = the request): exactly one of them, once.
    rule: 'every withdrawal is held once and settled at most once, matching its status',
    query: sql`SELECT w.id || ' ' || w.status AS detail FROM withdrawals w
      LEFT JOIN LATERAL (SELECT
        COUNT(*) FILTER (WHERE t.kind = 'withdrawal_hold') AS holds,
        COUNT(*) FILTER (WHERE t.kind = 'withdrawal_payout') AS payouts,
        COUNT(*) FILTER (WHERE t.kind = 'withdrawal_release') AS releases
        FROM ledger_transactions t
        WHERE t.kind IN ('withdrawal_hold', 'withdrawal_payout', 'withdrawal_release') AND t.ref_id = w.id::text) c ON true
      LEFT JOIN LATERAL (SELECT COUNT(*) AS holds FROM ledger_transactions r
        WHERE r.kind = 'withdrawal_request_hold' AND r.ref_id = w.request_id::text) rh ON true
      WHERE c.holds + rh.holds <> 1
         OR (w.status = 'pending' AND (c.payouts + c.releases) <> 0)
         OR (w.status = 'approved' AND (c.payouts <> 1 OR c.releases <> 0))
         OR (w.status = 'rejected' AND (c.releases <> 1 OR c.payouts <> 0))`,
  },
  {
    // A hold's entries, per account, against what its withdrawals say: each source account (earning ->
    // earnings, rewards, balance) of the owner gives the sum of its withdrawals, the owner's
    // pending_withdrawal gets their total; nothing else. A hold no withdrawal points to shows as booked
    // money nothing expects.
    rule: "every hold moves exactly its withdrawals' amounts from their sources into pending_withdrawal",
    query: sql`WITH held AS (
        SELECT t.id AS tx, w.user_id, w.source, w.amount FROM withdrawals w
          JOIN ledger_transactions t ON t.kind = 'withdrawal_hold' AND t.ref_id = w.id::text
        UNION ALL
        SELECT t.id, w.user_id, w.source, w.amount FROM withdrawals w
          JOIN ledger_transactions t ON t.kind = 'withdrawal_request_hold' AND t.ref_id = w.request_id::text),
      expected AS (
        SELECT tx, user_id::text AS owner, CASE source WHEN 'earning' THEN 'earnings' ELSE source END AS kind,
               -sum(amount) AS amount FROM held GROUP BY 1, 2, 3
        UNION ALL
        SELECT tx, user_id::text, 'pending_withdrawal', sum(amount) FROM held GROUP BY 1, 2),
      booked AS (
        SELECT e.transaction_id AS tx, coalesce(a.user_id::text, 'platform') AS owner, a.kind, sum(e.amount) AS amount
        FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id JOIN ledger_accounts a ON a.id = e.account_id
        WHERE t.kind IN ('withdrawal_hold', 'withdrawal_request_hold') GROUP BY 1, 2, 3)
      SELECT coalesce(x.tx, b.tx) || ' ' || coalesce(x.owner, b.owner) || ' ' || coalesce(x.kind, b.kind)
             || ' expected=' || coalesce(x.amount, 0) || ' booked=' || coalesce(b.amount, 0) AS detail
      FROM expected x FULL JOIN booked b ON b.tx = x.tx AND b.owner = x.owner AND b.kind = x.kind
      WHERE x.amount IS DISTINCT FROM b.amount`,
  },
  {
    rule: 'pending withdrawals equal the held money',
    query: sql`SELECT a.user_id::text || ' held=' || a.balance || ' pending=' || COALESCE(w.total, 0) AS detail
      FROM ledger_accounts a LEFT JOIN (SELECT user_id, SUM(amount) AS total FROM withdrawals WHERE status = 'pending' GROUP BY user_id) w ON w.user_id = a.user_id
      WHERE a.kind = 'pending_withdrawal' AND a.balance <> COALESCE(w.total, 0)`,
  },
  {
    rule: 'every balance adjustment has exactly one ledger transaction moving its amount on the balance account',
    query: sql`SELECT b.id || ' amount=' || b.amount AS detail FROM balance_adjustments b
      LEFT JOIN LATERAL (SELECT count(DISTINCT t.id) AS txs, sum(e.amount) FILTER (WHERE a.kind = 'balance' AND a.user_id = b.user_id) AS moved
        FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id JOIN ledger_accounts a ON a.id = e.account_id
        WHERE t.kind = 'admin_adjustment' AND t.ref_id = b.id::text) l ON true
      WHERE l.txs <> 1 OR l.moved IS DISTINCT FROM b.amount`,
  },
  {
    rule: 'every admin adjustment in the ledger has its balance adjustment row',
    query: sql`SELECT t.id::text AS detail FROM ledger_transactions t
      WHERE t.kind = 'admin_adjustment' AND NOT EXISTS (SELECT 1 FROM balance_adjustments b WHERE b.id::text = t.ref_id)`,
  },
  {
    rule: 'the daily rollups equal the sum of postings by kind (per metric, platform day and slot)',
    query: ROLLUP_CHECK,
  },
  {
    rule: "each user's lifetime totals equal the sum of their postings by kind (earnings, rewards, deposits, adjustments)",
    query: USER_TOTALS_CHECK,
  },
];

export async function checkLedger(db: Db): Promise<Violation[]> {
  const out: Violation[] = [];
  for (const { rule, query } of RULES) {
    const rows = await rawRows<{ detail: string }>(db, query);
    for (const r of rows.slice(0, 20)) out.push({ rule, detail: r.detail });
  }
  const broken = await checkChain(db);
  if (broken)
    out.push({
      rule: 'the hash chain over the ledger transactions still matches them (the first that differs)',
      detail: `transaction ${broken.transactionId}: ${broken.detail}`,
    });
  // A chain recomputed after an edit matches itself, but no longer the head a snapshot published.
  const heads = await rawRows<{ detail: string }>(
    db,
    sql`SELECT 'snapshot ' || s.id || ' published ' || s.ledger_head || ' at transaction ' || s.ledger_tx_id
          || ', the chain now has ' || coalesce(c.hash, 'no link') AS detail
        FROM por_snapshots s LEFT JOIN ledger_chain c ON c.transaction_id = s.ledger_tx_id
        WHERE s.ledger_tx_id IS NOT NULL AND c.hash IS DISTINCT FROM s.ledger_head`,
  );
  for (const r of heads.slice(0, 20))
    out.push({ rule: "every published snapshot's ledger head is still the chain's link", detail: r.detail });
  return out;
}
