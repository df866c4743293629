-- The session cache (docs/decisions/0054-session-cache.md): every server instance keeps recently read
-- users rows in memory and drops one the moment it changes. The database says which rows changed, so no
-- write can be missed (a CLI, an operator's SQL, any code path): after every statement that updates or
-- deletes users rows, one notification on channel hf_sessions with the ids ('u:' id,id,...), or '*' (drop
-- everything) when there are more than fit in one notification or the table was truncated. PostgreSQL
-- delivers it only if the transaction commits, in commit order.
CREATE FUNCTION hf_users_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  n integer;
  ids text;
BEGIN
  SELECT count(*), string_agg(id::text, ',') INTO n, ids FROM (SELECT id FROM changed_rows LIMIT 101) c;
  IF n > 100 THEN
    PERFORM pg_notify('hf_sessions', '*');
  ELSIF n > 0 THEN
    PERFORM pg_notify('hf_sessions', 'u:' || ids);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION hf_users_cleared() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('hf_sessions', '*');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_sessions_update AFTER UPDATE ON users REFERENCING OLD TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION hf_users_changed();
--> statement-breakpoint
CREATE TRIGGER users_sessions_delete AFTER DELETE ON users REFERENCING OLD TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION hf_users_changed();
--> statement-breakpoint
CREATE TRIGGER users_sessions_truncate AFTER TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION hf_users_cleared();
