-- The platform itself can act in the audit log (the chain watcher completing withdrawals by a payout it found), and
-- every entry takes its time from the platform clock: no database default to fall back on.
ALTER TABLE "audit_log" ALTER COLUMN "admin_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ALTER COLUMN "created_at" DROP DEFAULT;