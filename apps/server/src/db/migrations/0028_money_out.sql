ALTER TABLE "chain_reconciliations" ADD COLUMN "checked_payouts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payout_batches" ADD COLUMN "downloaded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payout_batches" ADD COLUMN "grace_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "session_id" uuid;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "payee_refused_at" timestamp with time zone;--> statement-breakpoint
-- Batches downloaded before this column existed: their first download is in the audit log.
UPDATE "payout_batches" b SET "downloaded_at" = d.at
FROM (SELECT target_id, min(created_at) AS at FROM "audit_log" WHERE action = 'payout_batch_download' GROUP BY target_id) d
WHERE d.target_id = b.id::text;
