-- Two writes that belong at COMMIT (docs/decisions/0064-commit-time-writes.md).
-- 1. The rollup version (migration 0012) was raised in mid-transaction, by the rollup trigger of the first write
--    that changed a closed day. The one version row was then held while the writer went on to take the ledger's
--    locks, so two writers of closed days that touched the same users deadlocked (and were retried). Such a write
--    now queues its transaction here (one row per transaction, nobody else's), and a deferred constraint trigger
--    raises the version and deletes the row at COMMIT, after every other lock the writer takes. Readers see the
--    new figures and the new version together, as before.
CREATE TABLE "rollup_version_pending" (
	"tx" bigint PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE FUNCTION hf_raise_rollup_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE rollup_version SET v = v + 1;
  DELETE FROM rollup_version_pending WHERE tx = NEW.tx;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER rollup_version_pending_ins AFTER INSERT ON rollup_version_pending DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION hf_raise_rollup_version();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION hf_apply(d hf_delta[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE today date := hf_rollup_today();
BEGIN
  INSERT INTO rollups AS r (metric, day, slot, n)
  SELECT x.metric, x.day, x.slot, sum(x.n) FROM unnest(d) x GROUP BY 1, 2, 3 HAVING sum(x.n) <> 0 ORDER BY 1, 2, 3
  ON CONFLICT (metric, day, slot) DO UPDATE SET n = r.n + excluded.n;
  IF EXISTS (SELECT FROM unnest(d) x WHERE x.day <> DATE '1970-01-01' AND x.day < today
             GROUP BY x.metric, x.day, x.slot HAVING sum(x.n) <> 0) THEN
    INSERT INTO rollup_version_pending (tx) VALUES (txid_current()) ON CONFLICT (tx) DO NOTHING;
  END IF;
END $$;
--> statement-breakpoint
-- 2. The user totals' triggers (migration 0019) said what a row adds to its user's sums in five places: four
--    trigger functions, their WHEN clauses and the view the rebuild and ledger:check read. One overloaded function
--    per table now says it, and one trigger function applies it to the sum its trigger names. The triggers keep
--    their names (setRollupTriggers turns them off for a bulk load) and their timing (deferred to COMMIT).
CREATE FUNCTION hf_user_total(r investments) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$ SELECT r.total_earned $$;
--> statement-breakpoint
CREATE FUNCTION hf_user_total(r referral_rewards) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$ SELECT r.amount $$;
--> statement-breakpoint
CREATE FUNCTION hf_user_total(r deposits) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN r.status = 'confirmed' AND r.type IN ('demo', 'real') THEN r.amount ELSE 0 END
$$;
--> statement-breakpoint
CREATE FUNCTION hf_user_total(r balance_adjustments) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$ SELECT r.amount $$;
--> statement-breakpoint
CREATE OR REPLACE VIEW hf_user_totals_raw AS
  SELECT user_id, sum(e)::bigint AS earnings, sum(r)::bigint AS referral_rewards, sum(d)::bigint AS deposits,
         sum(a)::bigint AS adjustments
  FROM (SELECT user_id, hf_user_total(x) AS e, 0 AS r, 0 AS d, 0 AS a FROM investments x WHERE hf_user_total(x) <> 0
        UNION ALL SELECT user_id, 0, hf_user_total(x), 0, 0 FROM referral_rewards x WHERE hf_user_total(x) <> 0
        UNION ALL SELECT user_id, 0, 0, hf_user_total(x), 0 FROM deposits x WHERE hf_user_total(x) <> 0
        UNION ALL SELECT user_id, 0, 0, 0, hf_user_total(x) FROM balance_adjustments x WHERE hf_user_total(x) <> 0) x
  GROUP BY user_id;
--> statement-breakpoint
-- Adds to one of a user's sums, by name.
CREATE FUNCTION hf_add_user_total(uid uuid, sum_name text, amount bigint) RETURNS void LANGUAGE sql AS $$
  SELECT hf_add_user_totals(uid, CASE sum_name WHEN 'earnings' THEN amount ELSE 0 END,
    CASE sum_name WHEN 'referral_rewards' THEN amount ELSE 0 END, CASE sum_name WHEN 'deposits' THEN amount ELSE 0 END,
    CASE sum_name WHEN 'adjustments' THEN amount ELSE 0 END)
$$;
--> statement-breakpoint
-- TG_ARGV[0] names the sum (earnings, referral_rewards, deposits or adjustments); the row's table picks
-- hf_user_total (PL/pgSQL compiles a trigger function once per table it is attached to).
CREATE FUNCTION hf_user_totals_row() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sum_name text := TG_ARGV[0];
  old_uid uuid;
  old_amount bigint := 0;
  new_amount bigint := 0;
BEGIN
  IF TG_OP <> 'INSERT' THEN old_uid := OLD.user_id; old_amount := hf_user_total(OLD); END IF;
  IF TG_OP <> 'DELETE' THEN
    IF old_uid = NEW.user_id THEN
      new_amount := hf_user_total(NEW) - old_amount;
      old_amount := 0;
    ELSE
      new_amount := hf_user_total(NEW);
    END IF;
    IF new_amount <> 0 THEN PERFORM hf_add_user_total(NEW.user_id, sum_name, new_amount); END IF;
  END IF;
  IF old_amount <> 0 THEN PERFORM hf_add_user_total(old_uid, sum_name, -old_amount); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Queued only when a sum changes (the WHEN is judged at the write; the function runs at COMMIT).
DO $$
DECLARE
  t record;
  op record;
BEGIN
  FOR t IN SELECT * FROM (VALUES ('investments', 'earnings'), ('referral_rewards', 'referral_rewards'),
                                 ('deposits', 'deposits'), ('balance_adjustments', 'adjustments')) v(tbl, sum_name) LOOP
    FOR op IN SELECT * FROM (VALUES
        ('ins', 'INSERT', 'hf_user_total(NEW) <> 0'),
        ('upd', 'UPDATE', 'hf_user_total(OLD) <> hf_user_total(NEW) OR (OLD.user_id <> NEW.user_id AND hf_user_total(NEW) <> 0)'),
        ('del', 'DELETE', 'hf_user_total(OLD) <> 0')) v(suffix, event, cond) LOOP
      EXECUTE format('DROP TRIGGER %I ON %I', t.tbl || '_totals_' || op.suffix, t.tbl);
      EXECUTE format('CREATE CONSTRAINT TRIGGER %I AFTER %s ON %I DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (%s) '
                     'EXECUTE FUNCTION hf_user_totals_row(%L)', t.tbl || '_totals_' || op.suffix, op.event, t.tbl, op.cond,
                     t.sum_name);
    END LOOP;
  END LOOP;
END $$;
--> statement-breakpoint
DROP FUNCTION hf_totals_investments();
--> statement-breakpoint
DROP FUNCTION hf_totals_referral_rewards();
--> statement-breakpoint
DROP FUNCTION hf_totals_deposits();
--> statement-breakpoint
DROP FUNCTION hf_totals_adjustments();
--> statement-breakpoint
DROP FUNCTION hf_deposit_counts(deposits);
