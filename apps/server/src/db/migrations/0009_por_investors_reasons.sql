-- Proof of reserves: each snapshot's number of investors (its leaves of users who are not staff, counted for the
-- snapshots already taken), and why a reserve's uploaded signature did not verify.
ALTER TABLE "por_reserves" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "por_snapshots" ADD COLUMN "investors" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "por_snapshots" s SET "investors" = (SELECT count(*) FROM "por_leaves" l JOIN "users" u ON u."id" = l."user_id" WHERE l."snapshot_id" = s."id" AND NOT u."is_admin");
