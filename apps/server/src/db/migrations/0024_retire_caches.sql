-- Machinery users did not feel, retired (docs/decisions/0074-simpler-request-path.md):
-- 1. The session cache's notifications: the users triggers that sent changed ids on channel hf_sessions.
-- 2. The analytics cache's rollup version (migrations 0012 and 0020): its table, its pending raises and their trigger.
-- The current functions and triggers, without these and without the registration-hour rollups (migration 0017),
-- are in db/functions.sql, applied right after this migration; it rebuilds the rollups and user totals.
DROP TRIGGER users_sessions_update ON users;--> statement-breakpoint
DROP TRIGGER users_sessions_delete ON users;--> statement-breakpoint
DROP TRIGGER users_sessions_truncate ON users;--> statement-breakpoint
DROP FUNCTION hf_users_changed();--> statement-breakpoint
DROP FUNCTION hf_users_cleared();--> statement-breakpoint
DROP TABLE "rollup_version" CASCADE;--> statement-breakpoint
DROP TABLE "rollup_version_pending" CASCADE;--> statement-breakpoint
DROP FUNCTION hf_raise_rollup_version();
