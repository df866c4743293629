-- The ledger owns every derived money figure: postMany (ledger/ledger.ts, LEDGER_FIGURES) adds each posting to
-- user_totals and to the daily rollups in the posting's own statement. The triggers and functions that derived
-- them from the business rows go (with CASCADE, the triggers calling them); only hf_uuid7, hf_owner_uuid and
-- hf_deposit_counts stay (db/functions.sql). Non-money counts are read from the tables' indexes, so the
-- rollups keep only the money series, rebuilt here from the postings.
DROP VIEW IF EXISTS hf_user_totals_raw;
--> statement-breakpoint
DO $$
DECLARE f regprocedure;
BEGIN
  FOR f IN SELECT p.oid::regprocedure FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
           WHERE n.nspname = 'public' AND p.proname LIKE 'hf\_%'
             AND p.proname NOT IN ('hf_uuid7', 'hf_owner_uuid', 'hf_deposit_counts')
  LOOP
    EXECUTE format('DROP FUNCTION IF EXISTS %s CASCADE', f);
  END LOOP;
END $$;
--> statement-breakpoint
DROP TYPE IF EXISTS hf_delta CASCADE;
--> statement-breakpoint
DELETE FROM rollups;
--> statement-breakpoint
DELETE FROM user_totals;
--> statement-breakpoint
-- Each figure transaction's entries on its user account: deposit and admin_adjustment on balance, investment on
-- invested (daily rollups `<kind>.count` / `<kind>.amount` per platform day and slot), cycle_earning on
-- earnings and referral_reward on rewards (user totals), as LEDGER_FIGURES says.
WITH f(kind, account, total, daily) AS (VALUES
    ('deposit', 'balance', 'deposits', true), ('admin_adjustment', 'balance', 'adjustments', true),
    ('investment', 'invested', NULL, true), ('cycle_earning', 'earnings', 'earnings', false),
    ('referral_reward', 'rewards', 'referral_rewards', false)),
  fig AS MATERIALIZED (
    SELECT t.kind, t.ref_id, a.user_id, f.total, f.daily,
           (min(t.created_at) AT TIME ZONE coalesce((SELECT value FROM settings WHERE key = 'rollup_timezone'), 'UTC'))::date AS day,
           hashtext(a.user_id::text) & 7 AS slot, sum(e.amount)::bigint AS amount
    FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id JOIN ledger_accounts a ON a.id = e.account_id
    JOIN f ON f.kind = t.kind AND f.account = a.kind AND a.user_id IS NOT NULL
    GROUP BY t.kind, t.ref_id, a.user_id, f.total, f.daily),
  totals AS (
    INSERT INTO user_totals (user_id, earnings, referral_rewards, deposits, adjustments)
    SELECT user_id, coalesce(sum(amount) FILTER (WHERE total = 'earnings'), 0), coalesce(sum(amount) FILTER (WHERE total = 'referral_rewards'), 0),
           coalesce(sum(amount) FILTER (WHERE total = 'deposits'), 0), coalesce(sum(amount) FILTER (WHERE total = 'adjustments'), 0)
    FROM fig WHERE total IS NOT NULL GROUP BY user_id)
INSERT INTO rollups (metric, day, slot, n)
SELECT m.metric, fig.day, fig.slot, sum(m.n) FROM fig
  CROSS JOIN LATERAL (VALUES (fig.kind || '.count', 1::bigint), (fig.kind || '.amount', fig.amount)) AS m(metric, n)
WHERE fig.daily GROUP BY 1, 2, 3 HAVING sum(m.n) <> 0;
