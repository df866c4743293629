-- User search in the back office is a contains-search over "email first last"; a trigram index
-- answers it without reading the whole users table (docs/decisions/0012).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS users_search_trgm ON users USING gin ((email || ' ' || first_name || ' ' || last_name) gin_trgm_ops);
