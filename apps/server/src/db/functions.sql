-- Every SQL function, view and trigger of the database, as it is now. The migrations in migrations/ are
-- history (tables, columns, indexes, data); this file is the current definition. It is applied after them
-- whenever it changes (db/functions.ts, in one transaction, which then rebuilds the figures the triggers keep),
-- so a change is made here and nowhere else. Only CREATE OR REPLACE (DROP + CREATE for triggers): it may run
-- on any database migrated to the latest migration.
-- The composite type hf_delta (metric text, day date, slot integer, n bigint) is created by the migrations.

-- ------------------------------------------------------------------------------------------ append-only tables

CREATE OR REPLACE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only';
END $$;

CREATE OR REPLACE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger entries and transactions are append-only';
END $$;

CREATE OR REPLACE TRIGGER audit_log_no_update BEFORE UPDATE OR DELETE OR TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
CREATE OR REPLACE TRIGGER ledger_entries_no_update BEFORE UPDATE OR DELETE OR TRUNCATE ON ledger_entries
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();
CREATE OR REPLACE TRIGGER ledger_transactions_no_update BEFORE UPDATE OR DELETE OR TRUNCATE ON ledger_transactions
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();

-- ------------------------------------------------------------------------------------------ ids

-- Time-ordered ids (UUID version 7: 48 bits of Unix milliseconds, then random bits) for withdrawals: the rows
-- of one request land on the last pages of the primary key (decision 0056).
CREATE OR REPLACE FUNCTION hf_uuid7() RETURNS uuid LANGUAGE sql VOLATILE AS $$
  SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
           PLACING substring(int8send((extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3) FROM 1 FOR 6),
         52, 1), 53, 1), 'hex')::uuid
$$;

-- Cycle earning ids that begin with the first 6 bytes of their owner's id (then random bits; version 8): one
-- user's earnings share a few leaves of the key Withdraw All updates (decision 0058).
CREATE OR REPLACE FUNCTION hf_owner_uuid(owner uuid) RETURNS uuid LANGUAGE sql VOLATILE AS $$
  SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) PLACING substring(uuid_send(owner) FROM 1 FOR 6) FROM 1 FOR 6),
         54, 0), 55, 1), 'hex')::uuid
$$;

-- ------------------------------------------------------------------------------------------ which deposits count

-- The one definition of a deposit that counts as money deposited (Total Deposits, Deposits Received, a user's
-- lifetime deposits, and ledger:check's "one ledger transaction per counted deposit"): confirmed, demo or on
-- the chain. An administrator's credit (admin_credit) is an adjustment, not a deposit.
CREATE OR REPLACE FUNCTION hf_deposit_counts(status text, type text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT status = 'confirmed' AND type IN ('demo', 'real')
$$;

-- ------------------------------------------------------------------------------------------ rollups

-- Analytics and totals (decision 0035): table rollups holds sums per metric, platform day and slot, kept by the
-- statement triggers below in the writer's transaction. Counters (no day) sit on the day 1970-01-01.

-- The platform time zone the rollups are dated in (the server sets it at start: syncRollupTimezone).
CREATE OR REPLACE FUNCTION hf_rollup_tz() RETURNS text LANGUAGE sql STABLE AS $$
  SELECT coalesce((SELECT value FROM settings WHERE key = 'rollup_timezone'), 'UTC')
$$;

-- Eight slots per metric and day, by user: parallel writers for different users rarely share a row.
CREATE OR REPLACE FUNCTION hf_slot(u uuid) RETURNS integer LANGUAGE sql IMMUTABLE AS $$ SELECT hashtext(u::text) & 7 $$;

-- What a group of rows contributes: one function per table turns a group (owner's slot, the keys its metrics
-- depend on, the day; signed row count n, signed amount sum a) into deltas. The triggers, the rebuild and
-- ledger:check's comparison all group rows the same way and call these.
CREATE OR REPLACE FUNCTION hf_user_group(slot integer, day date, n bigint) RETURNS SETOF hf_delta
LANGUAGE sql IMMUTABLE AS $$
  SELECT x.metric, x.day, slot, n FROM (VALUES ('registrations', day), ('users', DATE '1970-01-01')) AS x(metric, day)
$$;

CREATE OR REPLACE FUNCTION hf_deposit_group(slot integer, status text, type text, day date, n bigint, a bigint)
RETURNS SETOF hf_delta LANGUAGE sql IMMUTABLE AS $$
  SELECT 'deposits.' || status, DATE '1970-01-01', slot, n
  UNION ALL
  SELECT x.metric, x.day, slot, x.n
  FROM (VALUES ('deposits.' || type || '.count', day, n),
               ('deposits.' || type || '.amount', day, a),
               ('deposits.total_amount', DATE '1970-01-01', a)) AS x(metric, day, n)
  WHERE hf_deposit_counts(status, type)
$$;

CREATE OR REPLACE FUNCTION hf_amount_group(prefix text, slot integer, day date, n bigint, a bigint)
RETURNS SETOF hf_delta LANGUAGE sql IMMUTABLE AS $$
  SELECT x.metric, x.day, slot, x.n
  FROM (VALUES (prefix || '.count', day, n), (prefix || '.amount', day, a), (prefix || '.total_amount', DATE '1970-01-01', a))
    AS x(metric, day, n)
$$;

CREATE OR REPLACE FUNCTION hf_withdrawal_group(slot integer, status text, day date, n bigint, a bigint)
RETURNS SETOF hf_delta LANGUAGE sql IMMUTABLE AS $$
  SELECT 'withdrawals.' || status, DATE '1970-01-01', slot, n
  UNION ALL SELECT * FROM hf_amount_group('withdrawals', slot, day, n, a)
$$;

CREATE OR REPLACE FUNCTION hf_audit_group(slot integer, action text, n bigint) RETURNS SETOF hf_delta
LANGUAGE sql IMMUTABLE AS $$
  SELECT m, DATE '1970-01-01', slot, n FROM (VALUES ('audit'), ('audit.' || action)) AS x(m)
$$;

-- Every delta the raw rows imply: the rebuild inserts them, ledger:check compares them with the rollups. Called
-- with the zone as a plain value (not hf_rollup_tz()), so PostgreSQL inlines it into one plan over the tables.
CREATE OR REPLACE FUNCTION hf_raw_deltas(tz text) RETURNS SETOF hf_delta LANGUAGE sql STABLE AS $$
  SELECT x.* FROM (SELECT hf_slot(id) AS s, (created_at AT TIME ZONE tz)::date AS d, count(*) AS n FROM users GROUP BY 1, 2) g,
    hf_user_group(g.s, g.d, g.n) x
  UNION ALL
  SELECT x.* FROM (SELECT hf_slot(user_id) AS s, status, type, (coalesce(processed_at, created_at) AT TIME ZONE tz)::date AS d,
                          count(*) AS n, sum(amount)::bigint AS a FROM deposits GROUP BY 1, 2, 3, 4) g,
    hf_deposit_group(g.s, g.status, g.type, g.d, g.n, g.a) x
  UNION ALL
  SELECT x.* FROM (SELECT hf_slot(user_id) AS s, (created_at AT TIME ZONE tz)::date AS d, count(*) AS n, sum(amount)::bigint AS a
                   FROM investments GROUP BY 1, 2) g, hf_amount_group('investments', g.s, g.d, g.n, g.a) x
  UNION ALL
  SELECT x.* FROM (SELECT hf_slot(user_id) AS s, (created_at AT TIME ZONE tz)::date AS d, count(*) AS n, sum(amount)::bigint AS a
                   FROM balance_adjustments GROUP BY 1, 2) g, hf_amount_group('adjustments', g.s, g.d, g.n, g.a) x
  UNION ALL
  SELECT x.* FROM (SELECT hf_slot(user_id) AS s, status, (requested_at AT TIME ZONE tz)::date AS d, count(*) AS n,
                          sum(amount)::bigint AS a FROM withdrawals GROUP BY 1, 2, 3) g,
    hf_withdrawal_group(g.s, g.status, g.d, g.n, g.a) x
  UNION ALL
  SELECT x.* FROM (SELECT hf_slot(admin_id) AS s, action, count(*) AS n FROM audit_log GROUP BY 1, 2) g,
    hf_audit_group(g.s, g.action, g.n) x
$$;

-- Adds deltas to the rollups, rows in key order (parallel writers lock them in the same order).
CREATE OR REPLACE FUNCTION hf_apply(d hf_delta[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO rollups AS r (metric, day, slot, n)
  SELECT x.metric, x.day, x.slot, sum(x.n) FROM unnest(d) x GROUP BY 1, 2, 3 HAVING sum(x.n) <> 0 ORDER BY 1, 2, 3
  ON CONFLICT (metric, day, slot) DO UPDATE SET n = r.n + excluded.n
$$;

CREATE OR REPLACE FUNCTION hf_rebuild_rollups() RETURNS void LANGUAGE plpgsql AS $$
DECLARE tz text := hf_rollup_tz();
BEGIN
  LOCK TABLE rollups IN SHARE ROW EXCLUSIVE MODE;
  DELETE FROM rollups;
  INSERT INTO rollups (metric, day, slot, n)
  SELECT metric, day, slot, sum(n) FROM hf_raw_deltas(tz) GROUP BY 1, 2, 3 HAVING sum(n) <> 0;
END $$;

-- ledger:check: rollups that differ from what the raw rows imply, as readable lines.
CREATE OR REPLACE FUNCTION hf_rollup_diff() RETURNS SETOF text LANGUAGE plpgsql STABLE AS $$
DECLARE tz text := hf_rollup_tz();
BEGIN
  RETURN QUERY WITH raw AS (
      SELECT metric, day, slot, sum(n) AS n FROM hf_raw_deltas(tz) GROUP BY 1, 2, 3),
    kept AS (SELECT metric, day, slot, sum(n) AS n FROM rollups GROUP BY 1, 2, 3)
    SELECT coalesce(raw.metric, kept.metric) || ' ' || coalesce(raw.day, kept.day) || ' slot ' || coalesce(raw.slot, kept.slot)
           || ': raw rows ' || coalesce(raw.n, 0) || ', rollup ' || coalesce(kept.n, 0)
    FROM raw FULL JOIN kept ON kept.metric = raw.metric AND kept.day = raw.day AND kept.slot = raw.slot
    WHERE coalesce(raw.n, 0) <> coalesce(kept.n, 0);
END $$;

-- The triggers: a statement's new rows count +1 each, its old rows -1, grouped per table as above.
CREATE OR REPLACE FUNCTION hf_roll_users() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE tz text := hf_rollup_tz(); d hf_delta[] := '{}';
BEGIN
  IF TG_OP <> 'DELETE' THEN d := d || ARRAY(SELECT x FROM (SELECT hf_slot(id) AS s, (created_at AT TIME ZONE tz)::date AS d,
    count(*) AS n FROM new_rows GROUP BY 1, 2) g, hf_user_group(g.s, g.d, g.n) x); END IF;
  IF TG_OP <> 'INSERT' THEN d := d || ARRAY(SELECT x FROM (SELECT hf_slot(id) AS s, (created_at AT TIME ZONE tz)::date AS d,
    -count(*) AS n FROM old_rows GROUP BY 1, 2) g, hf_user_group(g.s, g.d, g.n) x); END IF;
  PERFORM hf_apply(d);
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION hf_roll_deposits() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE tz text := hf_rollup_tz(); d hf_delta[] := '{}';
BEGIN
  IF TG_OP <> 'DELETE' THEN d := d || ARRAY(SELECT x FROM (SELECT hf_slot(user_id) AS s, status, type,
    (coalesce(processed_at, created_at) AT TIME ZONE tz)::date AS d, count(*) AS n, sum(amount)::bigint AS a
    FROM new_rows GROUP BY 1, 2, 3, 4) g, hf_deposit_group(g.s, g.status, g.type, g.d, g.n, g.a) x); END IF;
  IF TG_OP <> 'INSERT' THEN d := d || ARRAY(SELECT x FROM (SELECT hf_slot(user_id) AS s, status, type,
    (coalesce(processed_at, created_at) AT TIME ZONE tz)::date AS d, -count(*) AS n, -sum(amount)::bigint AS a
    FROM old_rows GROUP BY 1, 2, 3, 4) g, hf_deposit_group(g.s, g.status, g.type, g.d, g.n, g.a) x); END IF;
  PERFORM hf_apply(d);
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION hf_roll_investments() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE tz text := hf_rollup_tz(); d hf_delta[] := '{}';
BEGIN
  IF TG_OP <> 'DELETE' THEN d := d || ARRAY(SELECT x FROM (SELECT hf_slot(user_id) AS s, (created_at AT TIME ZONE tz)::date AS d,
    count(*) AS n, sum(amount)::bigint AS a FROM new_rows GROUP BY 1, 2) g, hf_amount_group('investments', g.s, g.d, g.n, g.a) x); END IF;
  IF TG_OP <> 'INSERT' THEN d := d || ARRAY(SELECT x FROM (SELECT hf_slot(user_id) AS s, (created_at AT TIME ZONE tz)::date AS d,
    -count(*) AS n, -sum(amount)::bigint AS a FROM old_rows GROUP BY 1, 2) g, hf_amount_group('investments', g.s, g.d, g.n, g.a) x); END IF;
  PERFORM hf_apply(d);
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION hf_roll_adjustments() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE tz text := hf_rollup_tz(); d hf_delta[] := '{}';
BEGIN
  IF TG_OP <> 'DELETE' THEN d := d || ARRAY(SELECT x FROM (SELECT hf_slot(user_id) AS s, (created_at AT TIME ZONE tz)::date AS d,
    count(*) AS n, sum(amount)::bigint AS a FROM new_rows GROUP BY 1, 2) g, hf_amount_group('adjustments', g.s, g.d, g.n, g.a) x); END IF;
  IF TG_OP <> 'INSERT' THEN d := d || ARRAY(SELECT x FROM (SELECT hf_slot(user_id) AS s, (created_at AT TIME ZONE tz)::date AS d,
    -count(*) AS n, -sum(amount)::bigint AS a FROM old_rows GROUP BY 1, 2) g, hf_amount_group('adjustments', g.s, g.d, g.n, g.a) x); END IF;
  PERFORM hf_apply(d);
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION hf_roll_withdrawals() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE tz text := hf_rollup_tz(); d hf_delta[] := '{}';
BEGIN
  IF TG_OP <> 'DELETE' THEN d := d || ARRAY(SELECT x FROM (SELECT hf_slot(user_id) AS s, status, (requested_at AT TIME ZONE tz)::date AS d,
    count(*) AS n, sum(amount)::bigint AS a FROM new_rows GROUP BY 1, 2, 3) g, hf_withdrawal_group(g.s, g.status, g.d, g.n, g.a) x); END IF;
  IF TG_OP <> 'INSERT' THEN d := d || ARRAY(SELECT x FROM (SELECT hf_slot(user_id) AS s, status, (requested_at AT TIME ZONE tz)::date AS d,
    -count(*) AS n, -sum(amount)::bigint AS a FROM old_rows GROUP BY 1, 2, 3) g, hf_withdrawal_group(g.s, g.status, g.d, g.n, g.a) x); END IF;
  PERFORM hf_apply(d);
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION hf_roll_audit() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE d hf_delta[] := '{}';
BEGIN
  IF TG_OP <> 'DELETE' THEN d := d || ARRAY(SELECT x FROM (SELECT hf_slot(admin_id) AS s, action, count(*) AS n
    FROM new_rows GROUP BY 1, 2) g, hf_audit_group(g.s, g.action, g.n) x); END IF;
  IF TG_OP <> 'INSERT' THEN d := d || ARRAY(SELECT x FROM (SELECT hf_slot(admin_id) AS s, action, -count(*) AS n
    FROM old_rows GROUP BY 1, 2) g, hf_audit_group(g.s, g.action, g.n) x); END IF;
  PERFORM hf_apply(d);
  RETURN NULL;
END $$;

-- Named <table>_rollup_<op>: setRollupTriggers (rollups.queries.ts) turns them off for a bulk load.
CREATE OR REPLACE TRIGGER users_rollup_ins AFTER INSERT ON users REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION hf_roll_users();
CREATE OR REPLACE TRIGGER users_rollup_upd AFTER UPDATE ON users REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION hf_roll_users();
CREATE OR REPLACE TRIGGER users_rollup_del AFTER DELETE ON users REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION hf_roll_users();
CREATE OR REPLACE TRIGGER deposits_rollup_ins AFTER INSERT ON deposits REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION hf_roll_deposits();
CREATE OR REPLACE TRIGGER deposits_rollup_upd AFTER UPDATE ON deposits REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION hf_roll_deposits();
CREATE OR REPLACE TRIGGER deposits_rollup_del AFTER DELETE ON deposits REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION hf_roll_deposits();
CREATE OR REPLACE TRIGGER investments_rollup_ins AFTER INSERT ON investments REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION hf_roll_investments();
CREATE OR REPLACE TRIGGER investments_rollup_upd AFTER UPDATE ON investments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION hf_roll_investments();
CREATE OR REPLACE TRIGGER investments_rollup_del AFTER DELETE ON investments REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION hf_roll_investments();
CREATE OR REPLACE TRIGGER balance_adjustments_rollup_ins AFTER INSERT ON balance_adjustments REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION hf_roll_adjustments();
CREATE OR REPLACE TRIGGER balance_adjustments_rollup_upd AFTER UPDATE ON balance_adjustments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION hf_roll_adjustments();
CREATE OR REPLACE TRIGGER balance_adjustments_rollup_del AFTER DELETE ON balance_adjustments REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION hf_roll_adjustments();
CREATE OR REPLACE TRIGGER withdrawals_rollup_ins AFTER INSERT ON withdrawals REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION hf_roll_withdrawals();
CREATE OR REPLACE TRIGGER withdrawals_rollup_upd AFTER UPDATE ON withdrawals REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION hf_roll_withdrawals();
CREATE OR REPLACE TRIGGER withdrawals_rollup_del AFTER DELETE ON withdrawals REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION hf_roll_withdrawals();
CREATE OR REPLACE TRIGGER audit_log_rollup_ins AFTER INSERT ON audit_log REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION hf_roll_audit();
CREATE OR REPLACE TRIGGER audit_log_rollup_upd AFTER UPDATE ON audit_log REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION hf_roll_audit();
CREATE OR REPLACE TRIGGER audit_log_rollup_del AFTER DELETE ON audit_log REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION hf_roll_audit();

-- ------------------------------------------------------------------------------------------ user totals

-- Each user's lifetime sums (decision 0063), which the admin users list and the investor's dashboard both read
-- from user_totals: earnings (the gross of every cycle earning), referral rewards, deposits that count, and
-- balance adjustments. A user with nothing yet has no row (read as zeros).

-- The one definition of what a row adds to its user's sum; "lifetime earnings" is the sum of cycle earnings.
CREATE OR REPLACE FUNCTION hf_user_total(r cycle_earnings) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$ SELECT r.gross_amount $$;
CREATE OR REPLACE FUNCTION hf_user_total(r referral_rewards) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$ SELECT r.amount $$;
CREATE OR REPLACE FUNCTION hf_user_total(r deposits) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN hf_deposit_counts(r.status, r.type) THEN r.amount ELSE 0 END
$$;
CREATE OR REPLACE FUNCTION hf_user_total(r balance_adjustments) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$ SELECT r.amount $$;

-- The sums from the raw rows: the rebuild fills user_totals from it, ledger:check compares user_totals with it.
CREATE OR REPLACE VIEW hf_user_totals_raw AS
  SELECT user_id, sum(e)::bigint AS earnings, sum(r)::bigint AS referral_rewards, sum(d)::bigint AS deposits,
         sum(a)::bigint AS adjustments
  FROM (SELECT user_id, hf_user_total(x) AS e, 0 AS r, 0 AS d, 0 AS a FROM cycle_earnings x WHERE hf_user_total(x) <> 0
        UNION ALL SELECT user_id, 0, hf_user_total(x), 0, 0 FROM referral_rewards x WHERE hf_user_total(x) <> 0
        UNION ALL SELECT user_id, 0, 0, hf_user_total(x), 0 FROM deposits x WHERE hf_user_total(x) <> 0
        UNION ALL SELECT user_id, 0, 0, 0, hf_user_total(x) FROM balance_adjustments x WHERE hf_user_total(x) <> 0) x
  GROUP BY user_id;

CREATE OR REPLACE FUNCTION hf_add_user_totals(uid uuid, e bigint, r bigint, d bigint, a bigint) RETURNS void LANGUAGE sql AS $$
  INSERT INTO user_totals AS t (user_id, earnings, referral_rewards, deposits, adjustments) VALUES (uid, e, r, d, a)
  ON CONFLICT (user_id) DO UPDATE SET earnings = t.earnings + excluded.earnings,
    referral_rewards = t.referral_rewards + excluded.referral_rewards, deposits = t.deposits + excluded.deposits,
    adjustments = t.adjustments + excluded.adjustments
$$;

-- Adds to one of a user's sums, by name.
CREATE OR REPLACE FUNCTION hf_add_user_total(uid uuid, sum_name text, amount bigint) RETURNS void LANGUAGE sql AS $$
  SELECT hf_add_user_totals(uid, CASE sum_name WHEN 'earnings' THEN amount ELSE 0 END,
    CASE sum_name WHEN 'referral_rewards' THEN amount ELSE 0 END, CASE sum_name WHEN 'deposits' THEN amount ELSE 0 END,
    CASE sum_name WHEN 'adjustments' THEN amount ELSE 0 END)
$$;

CREATE OR REPLACE FUNCTION hf_rebuild_user_totals() RETURNS void LANGUAGE sql AS $$
  DELETE FROM user_totals;
  INSERT INTO user_totals (user_id, earnings, referral_rewards, deposits, adjustments)
    SELECT user_id, earnings, referral_rewards, deposits, adjustments FROM hf_user_totals_raw;
$$;

-- ledger:check: each user whose row differs from the raw rows (a missing row reads as zeros).
CREATE OR REPLACE FUNCTION hf_user_totals_diff() RETURNS SETOF text LANGUAGE sql STABLE AS $$
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

-- A row trigger: TG_ARGV[0] names the sum; the row's table picks hf_user_total. Deferred to COMMIT, after every
-- ledger lock of the transaction is held, so two writers meet on the ledger's locks first, in the ledger's order.
CREATE OR REPLACE FUNCTION hf_user_totals_row() RETURNS trigger LANGUAGE plpgsql AS $$
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

-- Named <table>_totals_<op> (setRollupTriggers turns them off for a bulk load); queued only when a sum changes.
DROP TRIGGER IF EXISTS cycle_earnings_totals_ins ON cycle_earnings;
CREATE CONSTRAINT TRIGGER cycle_earnings_totals_ins AFTER INSERT ON cycle_earnings DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (hf_user_total(NEW) <> 0) EXECUTE FUNCTION hf_user_totals_row('earnings');
DROP TRIGGER IF EXISTS cycle_earnings_totals_upd ON cycle_earnings;
CREATE CONSTRAINT TRIGGER cycle_earnings_totals_upd AFTER UPDATE ON cycle_earnings DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (hf_user_total(OLD) <> hf_user_total(NEW) OR (OLD.user_id <> NEW.user_id AND hf_user_total(NEW) <> 0))
  EXECUTE FUNCTION hf_user_totals_row('earnings');
DROP TRIGGER IF EXISTS cycle_earnings_totals_del ON cycle_earnings;
CREATE CONSTRAINT TRIGGER cycle_earnings_totals_del AFTER DELETE ON cycle_earnings DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (hf_user_total(OLD) <> 0) EXECUTE FUNCTION hf_user_totals_row('earnings');

DROP TRIGGER IF EXISTS referral_rewards_totals_ins ON referral_rewards;
CREATE CONSTRAINT TRIGGER referral_rewards_totals_ins AFTER INSERT ON referral_rewards DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (hf_user_total(NEW) <> 0) EXECUTE FUNCTION hf_user_totals_row('referral_rewards');
DROP TRIGGER IF EXISTS referral_rewards_totals_upd ON referral_rewards;
CREATE CONSTRAINT TRIGGER referral_rewards_totals_upd AFTER UPDATE ON referral_rewards DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (hf_user_total(OLD) <> hf_user_total(NEW) OR (OLD.user_id <> NEW.user_id AND hf_user_total(NEW) <> 0))
  EXECUTE FUNCTION hf_user_totals_row('referral_rewards');
DROP TRIGGER IF EXISTS referral_rewards_totals_del ON referral_rewards;
CREATE CONSTRAINT TRIGGER referral_rewards_totals_del AFTER DELETE ON referral_rewards DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (hf_user_total(OLD) <> 0) EXECUTE FUNCTION hf_user_totals_row('referral_rewards');

DROP TRIGGER IF EXISTS deposits_totals_ins ON deposits;
CREATE CONSTRAINT TRIGGER deposits_totals_ins AFTER INSERT ON deposits DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (hf_user_total(NEW) <> 0) EXECUTE FUNCTION hf_user_totals_row('deposits');
DROP TRIGGER IF EXISTS deposits_totals_upd ON deposits;
CREATE CONSTRAINT TRIGGER deposits_totals_upd AFTER UPDATE ON deposits DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (hf_user_total(OLD) <> hf_user_total(NEW) OR (OLD.user_id <> NEW.user_id AND hf_user_total(NEW) <> 0))
  EXECUTE FUNCTION hf_user_totals_row('deposits');
DROP TRIGGER IF EXISTS deposits_totals_del ON deposits;
CREATE CONSTRAINT TRIGGER deposits_totals_del AFTER DELETE ON deposits DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (hf_user_total(OLD) <> 0) EXECUTE FUNCTION hf_user_totals_row('deposits');

DROP TRIGGER IF EXISTS balance_adjustments_totals_ins ON balance_adjustments;
CREATE CONSTRAINT TRIGGER balance_adjustments_totals_ins AFTER INSERT ON balance_adjustments DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (hf_user_total(NEW) <> 0) EXECUTE FUNCTION hf_user_totals_row('adjustments');
DROP TRIGGER IF EXISTS balance_adjustments_totals_upd ON balance_adjustments;
CREATE CONSTRAINT TRIGGER balance_adjustments_totals_upd AFTER UPDATE ON balance_adjustments DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (hf_user_total(OLD) <> hf_user_total(NEW) OR (OLD.user_id <> NEW.user_id AND hf_user_total(NEW) <> 0))
  EXECUTE FUNCTION hf_user_totals_row('adjustments');
DROP TRIGGER IF EXISTS balance_adjustments_totals_del ON balance_adjustments;
CREATE CONSTRAINT TRIGGER balance_adjustments_totals_del AFTER DELETE ON balance_adjustments DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (hf_user_total(OLD) <> 0) EXECUTE FUNCTION hf_user_totals_row('adjustments');

-- ------------------------------------------------------------------------------------------ retired

-- Definitions the ones above replaced that older definitions still called until this file ran; dropped here.
DROP TRIGGER IF EXISTS investments_totals_ins ON investments;
DROP TRIGGER IF EXISTS investments_totals_upd ON investments;
DROP TRIGGER IF EXISTS investments_totals_del ON investments;
DROP FUNCTION IF EXISTS hf_user_total(investments);
DROP FUNCTION IF EXISTS hf_user_hour_group(integer, date, integer, bigint);
DROP FUNCTION IF EXISTS hf_rollup_today();
