CREATE TABLE "balance_adjustments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"amount" bigint NOT NULL,
	"note" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "balance_adjustments_non_zero" CHECK ("balance_adjustments"."amount" <> 0)
);
--> statement-breakpoint
CREATE TABLE "rollups" (
	"metric" text NOT NULL,
	"day" date NOT NULL,
	"slot" integer NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "rollups_metric_day_slot_pk" PRIMARY KEY("metric","day","slot")
);
--> statement-breakpoint
ALTER TABLE "balance_adjustments" ADD CONSTRAINT "balance_adjustments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "balance_adjustments_user_idx" ON "balance_adjustments" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "audit_log_created_id_idx" ON "audit_log" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "audit_log_action_created_id_idx" ON "audit_log" USING btree ("action","created_at","id");--> statement-breakpoint
CREATE INDEX "deposits_created_id_idx" ON "deposits" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "deposits_status_created_id_idx" ON "deposits" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "withdrawals_requested_key_idx" ON "withdrawals" USING btree ("requested_at",coalesce("cycle_number", 2147483647),"id");--> statement-breakpoint
CREATE INDEX "withdrawals_status_requested_key_idx" ON "withdrawals" USING btree ("status","requested_at",coalesce("cycle_number", 2147483647),"id");--> statement-breakpoint
-- Admin balance updates so far live only in the ledger: one adjustment row per admin_adjustment
-- transaction (its user balance entry), dated like its deposit row when it had one.
INSERT INTO "balance_adjustments" ("id", "user_id", "amount", "note", "created_by", "created_at")
SELECT t."ref_id"::uuid, a."user_id", e."amount", t."memo", t."created_by",
       coalesce((SELECT d."created_at" FROM "deposits" d WHERE d."id"::text = t."ref_id"), t."created_at")
FROM "ledger_transactions" t
JOIN "ledger_entries" e ON e."transaction_id" = t."id"
JOIN "ledger_accounts" a ON a."id" = e."account_id" AND a."user_id" IS NOT NULL AND a."kind" = 'balance'
WHERE t."kind" = 'admin_adjustment';
--> statement-breakpoint
CREATE TYPE "hf_delta" AS ("metric" text, "day" date, "slot" integer, "n" bigint);
--> statement-breakpoint
-- The platform time zone the rollups are dated in (the server sets it at start: syncRollupTimezone).
CREATE FUNCTION hf_rollup_tz() RETURNS text LANGUAGE sql STABLE AS $$
  SELECT coalesce((SELECT value FROM settings WHERE key = 'rollup_timezone'), 'UTC')
$$;
--> statement-breakpoint
-- Eight slots per metric and day, by user: parallel writers for different users rarely share a row.
CREATE FUNCTION hf_slot(u uuid) RETURNS integer LANGUAGE sql IMMUTABLE AS $$ SELECT hashtext(u::text) & 7 $$;
--> statement-breakpoint
-- What one business row contributes (times sign). Counters (no day) use the fixed day 1970-01-01.
CREATE FUNCTION hf_user_deltas(id uuid, created_at timestamptz, tz text, sign integer) RETURNS SETOF hf_delta
LANGUAGE sql STABLE AS $$
  SELECT 'registrations', (created_at AT TIME ZONE tz)::date, hf_slot(id), sign::bigint
  UNION ALL SELECT 'users', DATE '1970-01-01', hf_slot(id), sign::bigint
$$;
--> statement-breakpoint
CREATE FUNCTION hf_deposit_deltas(user_id uuid, status text, type text, amount bigint, confirmed_at timestamptz, tz text, sign integer)
RETURNS SETOF hf_delta LANGUAGE sql STABLE AS $$
  SELECT 'deposits.' || status, DATE '1970-01-01', hf_slot(user_id), sign::bigint
  UNION ALL
  SELECT x.metric, x.day, hf_slot(user_id), x.n * sign
  FROM (VALUES ('deposits.' || type || '.count', (confirmed_at AT TIME ZONE tz)::date, 1::bigint),
               ('deposits.' || type || '.amount', (confirmed_at AT TIME ZONE tz)::date, amount),
               ('deposits.total_amount', DATE '1970-01-01', amount)) AS x(metric, day, n)
  WHERE status = 'confirmed' AND type IN ('demo', 'real')
$$;
--> statement-breakpoint
CREATE FUNCTION hf_amount_deltas(prefix text, user_id uuid, amount bigint, at timestamptz, tz text, sign integer)
RETURNS SETOF hf_delta LANGUAGE sql STABLE AS $$
  SELECT x.metric, x.day, hf_slot(user_id), x.n * sign
  FROM (VALUES (prefix || '.count', (at AT TIME ZONE tz)::date, 1::bigint),
               (prefix || '.amount', (at AT TIME ZONE tz)::date, amount),
               (prefix || '.total_amount', DATE '1970-01-01', amount)) AS x(metric, day, n)
$$;
--> statement-breakpoint
CREATE FUNCTION hf_withdrawal_deltas(user_id uuid, status text, amount bigint, requested_at timestamptz, tz text, sign integer)
RETURNS SETOF hf_delta LANGUAGE sql STABLE AS $$
  SELECT 'withdrawals.' || status, DATE '1970-01-01', hf_slot(user_id), sign::bigint
  UNION ALL SELECT * FROM hf_amount_deltas('withdrawals', user_id, amount, requested_at, tz, sign)
$$;
--> statement-breakpoint
CREATE FUNCTION hf_audit_deltas(admin_id uuid, action text, sign integer) RETURNS SETOF hf_delta LANGUAGE sql STABLE AS $$
  SELECT m, DATE '1970-01-01', hf_slot(admin_id), sign::bigint FROM (VALUES ('audit'), ('audit.' || action)) AS x(m)
$$;
--> statement-breakpoint
-- Every delta the raw rows imply: the rebuild inserts them, ledger:check compares them with the rollups.
CREATE FUNCTION hf_raw_deltas(tz text) RETURNS SETOF hf_delta LANGUAGE sql STABLE AS $$
  SELECT x.* FROM users r, hf_user_deltas(r.id, r.created_at, tz, 1) x
  UNION ALL SELECT x.* FROM deposits r, hf_deposit_deltas(r.user_id, r.status, r.type, r.amount, coalesce(r.processed_at, r.created_at), tz, 1) x
  UNION ALL SELECT x.* FROM investments r, hf_amount_deltas('investments', r.user_id, r.amount, r.created_at, tz, 1) x
  UNION ALL SELECT x.* FROM balance_adjustments r, hf_amount_deltas('adjustments', r.user_id, r.amount, r.created_at, tz, 1) x
  UNION ALL SELECT x.* FROM withdrawals r, hf_withdrawal_deltas(r.user_id, r.status, r.amount, r.requested_at, tz, 1) x
  UNION ALL SELECT x.* FROM audit_log r, hf_audit_deltas(r.admin_id, r.action, 1) x
$$;
--> statement-breakpoint
-- Adds deltas to the rollups, rows in key order (parallel writers lock them in the same order).
CREATE FUNCTION hf_apply(d hf_delta[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO rollups AS r (metric, day, slot, n)
  SELECT x.metric, x.day, x.slot, sum(x.n) FROM unnest(d) x GROUP BY 1, 2, 3 HAVING sum(x.n) <> 0 ORDER BY 1, 2, 3
  ON CONFLICT (metric, day, slot) DO UPDATE SET n = r.n + excluded.n
$$;
--> statement-breakpoint
CREATE FUNCTION hf_rebuild_rollups() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE rollups IN SHARE ROW EXCLUSIVE MODE;
  DELETE FROM rollups;
  INSERT INTO rollups (metric, day, slot, n)
  SELECT metric, day, slot, sum(n) FROM hf_raw_deltas(hf_rollup_tz()) GROUP BY 1, 2, 3 HAVING sum(n) <> 0;
END $$;
--> statement-breakpoint
CREATE FUNCTION hf_roll_users() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE tz text := hf_rollup_tz(); d hf_delta[] := '{}';
BEGIN
  IF TG_OP <> 'DELETE' THEN d := d || ARRAY(SELECT x FROM new_rows r, hf_user_deltas(r.id, r.created_at, tz, 1) x); END IF;
  IF TG_OP <> 'INSERT' THEN d := d || ARRAY(SELECT x FROM old_rows r, hf_user_deltas(r.id, r.created_at, tz, -1) x); END IF;
  PERFORM hf_apply(d);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION hf_roll_deposits() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE tz text := hf_rollup_tz(); d hf_delta[] := '{}';
BEGIN
  IF TG_OP <> 'DELETE' THEN d := d || ARRAY(SELECT x FROM new_rows r,
    hf_deposit_deltas(r.user_id, r.status, r.type, r.amount, coalesce(r.processed_at, r.created_at), tz, 1) x); END IF;
  IF TG_OP <> 'INSERT' THEN d := d || ARRAY(SELECT x FROM old_rows r,
    hf_deposit_deltas(r.user_id, r.status, r.type, r.amount, coalesce(r.processed_at, r.created_at), tz, -1) x); END IF;
  PERFORM hf_apply(d);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION hf_roll_investments() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE tz text := hf_rollup_tz(); d hf_delta[] := '{}';
BEGIN
  IF TG_OP <> 'DELETE' THEN d := d || ARRAY(SELECT x FROM new_rows r, hf_amount_deltas('investments', r.user_id, r.amount, r.created_at, tz, 1) x); END IF;
  IF TG_OP <> 'INSERT' THEN d := d || ARRAY(SELECT x FROM old_rows r, hf_amount_deltas('investments', r.user_id, r.amount, r.created_at, tz, -1) x); END IF;
  PERFORM hf_apply(d);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION hf_roll_adjustments() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE tz text := hf_rollup_tz(); d hf_delta[] := '{}';
BEGIN
  IF TG_OP <> 'DELETE' THEN d := d || ARRAY(SELECT x FROM new_rows r, hf_amount_deltas('adjustments', r.user_id, r.amount, r.created_at, tz, 1) x); END IF;
  IF TG_OP <> 'INSERT' THEN d := d || ARRAY(SELECT x FROM old_rows r, hf_amount_deltas('adjustments', r.user_id, r.amount, r.created_at, tz, -1) x); END IF;
  PERFORM hf_apply(d);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION hf_roll_withdrawals() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE tz text := hf_rollup_tz(); d hf_delta[] := '{}';
BEGIN
  IF TG_OP <> 'DELETE' THEN d := d || ARRAY(SELECT x FROM new_rows r, hf_withdrawal_deltas(r.user_id, r.status, r.amount, r.requested_at, tz, 1) x); END IF;
  IF TG_OP <> 'INSERT' THEN d := d || ARRAY(SELECT x FROM old_rows r, hf_withdrawal_deltas(r.user_id, r.status, r.amount, r.requested_at, tz, -1) x); END IF;
  PERFORM hf_apply(d);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION hf_roll_audit() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE d hf_delta[] := '{}';
BEGIN
  IF TG_OP <> 'DELETE' THEN d := d || ARRAY(SELECT x FROM new_rows r, hf_audit_deltas(r.admin_id, r.action, 1) x); END IF;
  IF TG_OP <> 'INSERT' THEN d := d || ARRAY(SELECT x FROM old_rows r, hf_audit_deltas(r.admin_id, r.action, -1) x); END IF;
  PERFORM hf_apply(d);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_rollup_ins AFTER INSERT ON users REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION hf_roll_users();
--> statement-breakpoint
CREATE TRIGGER users_rollup_upd AFTER UPDATE ON users REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION hf_roll_users();
--> statement-breakpoint
CREATE TRIGGER users_rollup_del AFTER DELETE ON users REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION hf_roll_users();
--> statement-breakpoint
CREATE TRIGGER deposits_rollup_ins AFTER INSERT ON deposits REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION hf_roll_deposits();
--> statement-breakpoint
CREATE TRIGGER deposits_rollup_upd AFTER UPDATE ON deposits REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION hf_roll_deposits();
--> statement-breakpoint
CREATE TRIGGER deposits_rollup_del AFTER DELETE ON deposits REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION hf_roll_deposits();
--> statement-breakpoint
CREATE TRIGGER investments_rollup_ins AFTER INSERT ON investments REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION hf_roll_investments();
--> statement-breakpoint
CREATE TRIGGER investments_rollup_upd AFTER UPDATE ON investments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION hf_roll_investments();
--> statement-breakpoint
CREATE TRIGGER investments_rollup_del AFTER DELETE ON investments REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION hf_roll_investments();
--> statement-breakpoint
CREATE TRIGGER balance_adjustments_rollup_ins AFTER INSERT ON balance_adjustments REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION hf_roll_adjustments();
--> statement-breakpoint
CREATE TRIGGER balance_adjustments_rollup_upd AFTER UPDATE ON balance_adjustments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION hf_roll_adjustments();
--> statement-breakpoint
CREATE TRIGGER balance_adjustments_rollup_del AFTER DELETE ON balance_adjustments REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION hf_roll_adjustments();
--> statement-breakpoint
CREATE TRIGGER withdrawals_rollup_ins AFTER INSERT ON withdrawals REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION hf_roll_withdrawals();
--> statement-breakpoint
CREATE TRIGGER withdrawals_rollup_upd AFTER UPDATE ON withdrawals REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION hf_roll_withdrawals();
--> statement-breakpoint
CREATE TRIGGER withdrawals_rollup_del AFTER DELETE ON withdrawals REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION hf_roll_withdrawals();
--> statement-breakpoint
CREATE TRIGGER audit_log_rollup_ins AFTER INSERT ON audit_log REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION hf_roll_audit();
--> statement-breakpoint
CREATE TRIGGER audit_log_rollup_upd AFTER UPDATE ON audit_log REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION hf_roll_audit();
--> statement-breakpoint
CREATE TRIGGER audit_log_rollup_del AFTER DELETE ON audit_log REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION hf_roll_audit();
--> statement-breakpoint
SELECT hf_rebuild_rollups();
