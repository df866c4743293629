-- The rebuild reads the raw rows through hf_raw_deltas, which PostgreSQL inlines (one plan over the
-- tables) only when its argument holds no subquery: hf_rollup_tz() as the argument made it call the
-- per-row functions one row at a time (100k users: 32 s instead of 2 s; docs/BENCHMARKS.md). The
-- time zone is read into a variable first.
CREATE OR REPLACE FUNCTION hf_rebuild_rollups() RETURNS void LANGUAGE plpgsql AS $$
DECLARE tz text := hf_rollup_tz();
BEGIN
  LOCK TABLE rollups IN SHARE ROW EXCLUSIVE MODE;
  DELETE FROM rollups;
  INSERT INTO rollups (metric, day, slot, n)
  SELECT metric, day, slot, sum(n) FROM hf_raw_deltas(tz) GROUP BY 1, 2, 3 HAVING sum(n) <> 0;
END $$;
--> statement-breakpoint
-- ledger:check's comparison of the rollups with the raw rows, for the same reason a function.
CREATE FUNCTION hf_rollup_diff() RETURNS SETOF text LANGUAGE plpgsql STABLE AS $$
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
