-- The admin users list (and its export) showed four lifetime sums per user, each a correlated sum over rows that
-- grow with the user's history (investments, referral rewards, deposits, adjustments): at a million users a random
-- page read about four times the pages of a page that reads one row of sums per user. They are kept here per user,
-- in the writer's transaction (docs/decisions/0063-user-totals.md).
-- 1. A user with nothing yet has no row (read as zeros); a row is inserted at the first change.
-- 2. Deferred constraint triggers (one per table and operation, only when a sum changes): they run at COMMIT,
--    after every ledger lock of the transaction is held, so two writers that touch the same users meet on the
--    ledger accounts' locks first, in the ledger's order, not on these rows in another.
-- 3. One definition of the sums from the raw rows (hf_user_totals_raw) fills the table here, rebuilds it after a
--    bulk load that ran with the triggers off (seed:large), and is what ledger:check compares it with.
CREATE TABLE "user_totals" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"earnings" bigint DEFAULT 0 NOT NULL,
	"referral_rewards" bigint DEFAULT 0 NOT NULL,
	"deposits" bigint DEFAULT 0 NOT NULL,
	"adjustments" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_totals" ADD CONSTRAINT "user_totals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE VIEW hf_user_totals_raw AS
  SELECT user_id, sum(e)::bigint AS earnings, sum(r)::bigint AS referral_rewards, sum(d)::bigint AS deposits,
         sum(a)::bigint AS adjustments
  FROM (SELECT user_id, total_earned AS e, 0 AS r, 0 AS d, 0 AS a FROM investments WHERE total_earned <> 0
        UNION ALL SELECT user_id, 0, amount, 0, 0 FROM referral_rewards WHERE amount <> 0
        UNION ALL SELECT user_id, 0, 0, amount, 0 FROM deposits WHERE status = 'confirmed' AND type IN ('demo', 'real') AND amount <> 0
        UNION ALL SELECT user_id, 0, 0, 0, amount FROM balance_adjustments WHERE amount <> 0) x
  GROUP BY user_id;
--> statement-breakpoint
CREATE FUNCTION hf_add_user_totals(uid uuid, e bigint, r bigint, d bigint, a bigint) RETURNS void LANGUAGE sql AS $$
  INSERT INTO user_totals AS t (user_id, earnings, referral_rewards, deposits, adjustments) VALUES (uid, e, r, d, a)
  ON CONFLICT (user_id) DO UPDATE SET earnings = t.earnings + excluded.earnings,
    referral_rewards = t.referral_rewards + excluded.referral_rewards, deposits = t.deposits + excluded.deposits,
    adjustments = t.adjustments + excluded.adjustments
$$;
--> statement-breakpoint
CREATE FUNCTION hf_rebuild_user_totals() RETURNS void LANGUAGE sql AS $$
  DELETE FROM user_totals;
  INSERT INTO user_totals (user_id, earnings, referral_rewards, deposits, adjustments)
    SELECT user_id, earnings, referral_rewards, deposits, adjustments FROM hf_user_totals_raw;
$$;
--> statement-breakpoint
-- Lines for ledger:check: each user whose row differs from the raw rows (a missing row reads as zeros).
CREATE FUNCTION hf_user_totals_diff() RETURNS SETOF text LANGUAGE sql STABLE AS $$
  SELECT coalesce(r.user_id, t.user_id)::text || ': kept ' ||
         concat_ws('/', coalesce(t.earnings, 0), coalesce(t.referral_rewards, 0), coalesce(t.deposits, 0), coalesce(t.adjustments, 0)) ||
         ', raw rows ' ||
         concat_ws('/', coalesce(r.earnings, 0), coalesce(r.referral_rewards, 0), coalesce(r.deposits, 0), coalesce(r.adjustments, 0)) ||
         ' (earnings/rewards/deposits/adjustments)'
  FROM hf_user_totals_raw r FULL JOIN user_totals t ON t.user_id = r.user_id
  WHERE (coalesce(t.earnings, 0), coalesce(t.referral_rewards, 0), coalesce(t.deposits, 0), coalesce(t.adjustments, 0))
     <> (coalesce(r.earnings, 0), coalesce(r.referral_rewards, 0), coalesce(r.deposits, 0), coalesce(r.adjustments, 0))
  ORDER BY 1
$$;
--> statement-breakpoint
-- What a row adds to its user's sums; the triggers apply new minus old.
CREATE FUNCTION hf_totals_investments() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.user_id = NEW.user_id THEN
    PERFORM hf_add_user_totals(NEW.user_id, NEW.total_earned - OLD.total_earned, 0, 0, 0);
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN PERFORM hf_add_user_totals(OLD.user_id, -OLD.total_earned, 0, 0, 0); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM hf_add_user_totals(NEW.user_id, NEW.total_earned, 0, 0, 0); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION hf_totals_referral_rewards() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.user_id = NEW.user_id THEN
    PERFORM hf_add_user_totals(NEW.user_id, 0, NEW.amount - OLD.amount, 0, 0);
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN PERFORM hf_add_user_totals(OLD.user_id, 0, -OLD.amount, 0, 0); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM hf_add_user_totals(NEW.user_id, 0, NEW.amount, 0, 0); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION hf_deposit_counts(d deposits) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN d.status = 'confirmed' AND d.type IN ('demo', 'real') THEN d.amount ELSE 0 END
$$;
--> statement-breakpoint
CREATE FUNCTION hf_totals_deposits() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.user_id = NEW.user_id THEN
    PERFORM hf_add_user_totals(NEW.user_id, 0, 0, hf_deposit_counts(NEW) - hf_deposit_counts(OLD), 0);
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN PERFORM hf_add_user_totals(OLD.user_id, 0, 0, -hf_deposit_counts(OLD), 0); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM hf_add_user_totals(NEW.user_id, 0, 0, hf_deposit_counts(NEW), 0); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION hf_totals_adjustments() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.user_id = NEW.user_id THEN
    PERFORM hf_add_user_totals(NEW.user_id, 0, 0, 0, NEW.amount - OLD.amount);
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN PERFORM hf_add_user_totals(OLD.user_id, 0, 0, 0, -OLD.amount); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM hf_add_user_totals(NEW.user_id, 0, 0, 0, NEW.amount); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Queued only when a sum changes (the WHEN is judged at the write; the function runs at COMMIT).
CREATE CONSTRAINT TRIGGER investments_totals_ins AFTER INSERT ON investments DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (NEW.total_earned <> 0) EXECUTE FUNCTION hf_totals_investments();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER investments_totals_upd AFTER UPDATE ON investments DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.total_earned <> NEW.total_earned OR OLD.user_id <> NEW.user_id) EXECUTE FUNCTION hf_totals_investments();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER investments_totals_del AFTER DELETE ON investments DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.total_earned <> 0) EXECUTE FUNCTION hf_totals_investments();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER referral_rewards_totals_ins AFTER INSERT ON referral_rewards DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (NEW.amount <> 0) EXECUTE FUNCTION hf_totals_referral_rewards();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER referral_rewards_totals_upd AFTER UPDATE ON referral_rewards DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.amount <> NEW.amount OR OLD.user_id <> NEW.user_id) EXECUTE FUNCTION hf_totals_referral_rewards();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER referral_rewards_totals_del AFTER DELETE ON referral_rewards DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.amount <> 0) EXECUTE FUNCTION hf_totals_referral_rewards();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER deposits_totals_ins AFTER INSERT ON deposits DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (hf_deposit_counts(NEW) <> 0) EXECUTE FUNCTION hf_totals_deposits();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER deposits_totals_upd AFTER UPDATE ON deposits DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (hf_deposit_counts(OLD) <> hf_deposit_counts(NEW) OR (OLD.user_id <> NEW.user_id AND hf_deposit_counts(NEW) <> 0))
  EXECUTE FUNCTION hf_totals_deposits();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER deposits_totals_del AFTER DELETE ON deposits DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (hf_deposit_counts(OLD) <> 0) EXECUTE FUNCTION hf_totals_deposits();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER balance_adjustments_totals_ins AFTER INSERT ON balance_adjustments DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (NEW.amount <> 0) EXECUTE FUNCTION hf_totals_adjustments();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER balance_adjustments_totals_upd AFTER UPDATE ON balance_adjustments DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.amount <> NEW.amount OR OLD.user_id <> NEW.user_id) EXECUTE FUNCTION hf_totals_adjustments();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER balance_adjustments_totals_del AFTER DELETE ON balance_adjustments DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.amount <> 0) EXECUTE FUNCTION hf_totals_adjustments();
--> statement-breakpoint
SELECT hf_rebuild_user_totals();
