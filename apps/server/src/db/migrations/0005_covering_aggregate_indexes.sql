-- Analytics and platform totals sum amounts by day; with the amount in the index these are
-- index-only scans of the period instead of heap reads (docs/BENCHMARKS.md).
CREATE INDEX IF NOT EXISTS investments_created_amount_idx ON investments (created_at) INCLUDE (amount);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS deposits_confirmed_created_amount_idx ON deposits (created_at) INCLUDE (amount) WHERE status = 'confirmed';
