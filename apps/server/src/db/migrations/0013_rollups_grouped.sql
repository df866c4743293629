-- The rollup triggers grouped their transition rows only after a function call per row (four to five
-- deltas each): Withdraw All of 1,000 earnings spent 17-25 ms in the withdrawals trigger alone. What a
-- set of rows contributes now comes from its groups: rows are grouped first (owner's slot, the keys a
-- metric depends on, the day), and one function per table turns a group (signed row count n, signed
-- amount sum a) into deltas. The rebuild and ledger:check's comparison read the raw rows the same way,
-- so one definition per table serves all three (docs/decisions/0035-rollups-by-trigger.md).
CREATE FUNCTION hf_user_group(slot integer, day date, n bigint) RETURNS SETOF hf_delta LANGUAGE sql IMMUTABLE AS $$
  SELECT x.metric, x.day, slot, n FROM (VALUES ('registrations', day), ('users', DATE '1970-01-01')) AS x(metric, day)
$$;
--> statement-breakpoint
CREATE FUNCTION hf_deposit_group(slot integer, status text, type text, day date, n bigint, a bigint)
RETURNS SETOF hf_delta LANGUAGE sql IMMUTABLE AS $$
  SELECT 'deposits.' || status, DATE '1970-01-01', slot, n
  UNION ALL
  SELECT x.metric, x.day, slot, x.n
  FROM (VALUES ('deposits.' || type || '.count', day, n),
               ('deposits.' || type || '.amount', day, a),
               ('deposits.total_amount', DATE '1970-01-01', a)) AS x(metric, day, n)
  WHERE status = 'confirmed' AND type IN ('demo', 'real')
$$;
--> statement-breakpoint
CREATE FUNCTION hf_amount_group(prefix text, slot integer, day date, n bigint, a bigint)
RETURNS SETOF hf_delta LANGUAGE sql IMMUTABLE AS $$
  SELECT x.metric, x.day, slot, x.n
  FROM (VALUES (prefix || '.count', day, n), (prefix || '.amount', day, a), (prefix || '.total_amount', DATE '1970-01-01', a))
    AS x(metric, day, n)
$$;
--> statement-breakpoint
CREATE FUNCTION hf_withdrawal_group(slot integer, status text, day date, n bigint, a bigint)
RETURNS SETOF hf_delta LANGUAGE sql IMMUTABLE AS $$
  SELECT 'withdrawals.' || status, DATE '1970-01-01', slot, n
  UNION ALL SELECT * FROM hf_amount_group('withdrawals', slot, day, n, a)
$$;
--> statement-breakpoint
CREATE FUNCTION hf_audit_group(slot integer, action text, n bigint) RETURNS SETOF hf_delta LANGUAGE sql IMMUTABLE AS $$
  SELECT m, DATE '1970-01-01', slot, n FROM (VALUES ('audit'), ('audit.' || action)) AS x(m)
$$;
--> statement-breakpoint
-- Every delta the raw rows imply (rebuild and ledger:check), grouped before the functions are called.
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
--> statement-breakpoint
-- The triggers: the statement's new rows count +1 each, its old rows -1, grouped per table as above.
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
--> statement-breakpoint
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
--> statement-breakpoint
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
--> statement-breakpoint
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
--> statement-breakpoint
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
--> statement-breakpoint
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
--> statement-breakpoint
DROP FUNCTION hf_user_deltas(uuid, timestamptz, text, integer);
--> statement-breakpoint
DROP FUNCTION hf_deposit_deltas(uuid, text, text, bigint, timestamptz, text, integer);
--> statement-breakpoint
DROP FUNCTION hf_withdrawal_deltas(uuid, text, bigint, timestamptz, text, integer);
--> statement-breakpoint
DROP FUNCTION hf_amount_deltas(text, uuid, bigint, timestamptz, text, integer);
--> statement-breakpoint
DROP FUNCTION hf_audit_deltas(uuid, text, integer);
