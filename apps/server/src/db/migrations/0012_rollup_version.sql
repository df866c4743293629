CREATE TABLE "rollup_version" (
	"one" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"v" bigint NOT NULL,
	CONSTRAINT "rollup_version_one_row" CHECK ("rollup_version"."one")
);
--> statement-breakpoint
-- The analytics cache (docs/decisions/0048-analytics-closed-days-cache.md) keeps the figures of closed
-- days while this number stays the same: one row, raised in the writer's own transaction (a sequence
-- would not do: nextval is seen by others before the writer commits).
INSERT INTO "rollup_version" ("one", "v") VALUES (true, 1);
--> statement-breakpoint
-- Today in the rollups' time zone, as the database's clock says (the transaction's start).
CREATE FUNCTION hf_rollup_today() RETURNS date LANGUAGE sql STABLE AS $$
  SELECT (now() AT TIME ZONE hf_rollup_tz())::date
$$;
--> statement-breakpoint
-- Readers cache days before hf_rollup_today() - 1; writers raise the version for any net change to a
-- day before hf_rollup_today(): the day between is the margin for a writer whose transaction began
-- before midnight and commits after a reader of the next day filled its cache. Today's ordinary
-- writes (and updates whose deltas cancel, e.g. a login) never touch the version row; counters
-- (1970-01-01) are not days and are always read live.
CREATE OR REPLACE FUNCTION hf_apply(d hf_delta[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE today date := hf_rollup_today();
BEGIN
  INSERT INTO rollups AS r (metric, day, slot, n)
  SELECT x.metric, x.day, x.slot, sum(x.n) FROM unnest(d) x GROUP BY 1, 2, 3 HAVING sum(x.n) <> 0 ORDER BY 1, 2, 3
  ON CONFLICT (metric, day, slot) DO UPDATE SET n = r.n + excluded.n;
  IF EXISTS (SELECT FROM unnest(d) x WHERE x.day <> DATE '1970-01-01' AND x.day < today
             GROUP BY x.metric, x.day, x.slot HAVING sum(x.n) <> 0) THEN
    UPDATE rollup_version SET v = v + 1;
  END IF;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION hf_rebuild_rollups() RETURNS void LANGUAGE plpgsql AS $$
DECLARE tz text := hf_rollup_tz();
BEGIN
  LOCK TABLE rollups IN SHARE ROW EXCLUSIVE MODE;
  DELETE FROM rollups;
  INSERT INTO rollups (metric, day, slot, n)
  SELECT metric, day, slot, sum(n) FROM hf_raw_deltas(tz) GROUP BY 1, 2, 3 HAVING sum(n) <> 0;
  UPDATE rollup_version SET v = v + 1;
END $$;
