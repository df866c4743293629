-- A page number of the back-office users list starts its walk at the platform day holding it (decision 0049):
-- at a million users a day holds up to 11,000 users, and the walk through them was what grew with the data.
-- The users trigger now also counts registrations per hour of their platform day: metric 'registrations.hNN',
-- NN = whole hours since the day's start (00-24: a day is 23 to 25 hours long where clocks change), so the walk
-- starts at the hour holding the page (docs/decisions/0057-registration-hours.md). The rebuild and ledger:check's
-- comparison read the raw rows through hf_raw_deltas, as the trigger does, so the three stay one definition.
CREATE FUNCTION hf_user_hour_group(slot integer, day date, hour integer, n bigint) RETURNS SETOF hf_delta
LANGUAGE sql IMMUTABLE AS $$
  SELECT x.metric, x.day, slot, n
  FROM (VALUES ('registrations', day), ('registrations.h' || lpad(hour::text, 2, '0'), day), ('users', DATE '1970-01-01'))
    AS x(metric, day)
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION hf_raw_deltas(tz text) RETURNS SETOF hf_delta LANGUAGE sql STABLE AS $$
  SELECT x.* FROM (SELECT hf_slot(id) AS s, (created_at AT TIME ZONE tz)::date AS d,
                          floor(extract(epoch FROM created_at - ((created_at AT TIME ZONE tz)::date::timestamp AT TIME ZONE tz)) / 3600)::int AS h,
                          count(*) AS n FROM users GROUP BY 1, 2, 3) g,
    hf_user_hour_group(g.s, g.d, g.h, g.n) x
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
CREATE OR REPLACE FUNCTION hf_roll_users() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE tz text := hf_rollup_tz(); d hf_delta[] := '{}';
BEGIN
  IF TG_OP <> 'DELETE' THEN d := d || ARRAY(SELECT x FROM (SELECT hf_slot(id) AS s, (created_at AT TIME ZONE tz)::date AS d,
    floor(extract(epoch FROM created_at - ((created_at AT TIME ZONE tz)::date::timestamp AT TIME ZONE tz)) / 3600)::int AS h,
    count(*) AS n FROM new_rows GROUP BY 1, 2, 3) g, hf_user_hour_group(g.s, g.d, g.h, g.n) x); END IF;
  IF TG_OP <> 'INSERT' THEN d := d || ARRAY(SELECT x FROM (SELECT hf_slot(id) AS s, (created_at AT TIME ZONE tz)::date AS d,
    floor(extract(epoch FROM created_at - ((created_at AT TIME ZONE tz)::date::timestamp AT TIME ZONE tz)) / 3600)::int AS h,
    -count(*) AS n FROM old_rows GROUP BY 1, 2, 3) g, hf_user_hour_group(g.s, g.d, g.h, g.n) x); END IF;
  PERFORM hf_apply(d);
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP FUNCTION hf_user_group(integer, date, bigint);
--> statement-breakpoint
-- The hours of the users already there (the day and total counts are unchanged); the zone in a variable, as
-- hf_rebuild_rollups does, so one grouped scan of users does it.
DO $$
DECLARE tz text := hf_rollup_tz();
BEGIN
  INSERT INTO rollups (metric, day, slot, n)
  SELECT x.metric, x.day, x.slot, sum(x.n)
  FROM (SELECT hf_slot(id) AS s, (created_at AT TIME ZONE tz)::date AS d,
               floor(extract(epoch FROM created_at - ((created_at AT TIME ZONE tz)::date::timestamp AT TIME ZONE tz)) / 3600)::int AS h,
               count(*) AS n FROM users GROUP BY 1, 2, 3) g,
       hf_user_hour_group(g.s, g.d, g.h, g.n) x
  WHERE x.metric LIKE 'registrations.h%' GROUP BY 1, 2, 3 HAVING sum(x.n) <> 0;
END $$;
