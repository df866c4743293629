-- Staff roles (every existing administrator becomes an owner), four-eyes proposals, and the second approver of a
-- balance adjustment.
CREATE TABLE "proposals" (
	"id" uuid PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"target_id" text NOT NULL,
	"user_id" uuid,
	"input" jsonb NOT NULL,
	"premise" jsonb NOT NULL,
	"status" text NOT NULL,
	"proposed_by" uuid NOT NULL,
	"proposed_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"reason" text,
	CONSTRAINT "proposals_status_valid" CHECK ("proposals"."status" IN ('open', 'approved', 'rejected', 'expired')),
	CONSTRAINT "proposals_four_eyes" CHECK ("proposals"."status" <> 'approved' OR "proposals"."decided_by" <> "proposals"."proposed_by")
);
--> statement-breakpoint
ALTER TABLE "account_links" DROP CONSTRAINT "account_links_kind_valid";--> statement-breakpoint
ALTER TABLE "balance_adjustments" ADD COLUMN "approved_by" uuid;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "role" text;--> statement-breakpoint
UPDATE "users" SET "role" = 'owner' WHERE "is_admin";--> statement-breakpoint
ALTER TABLE "proposals" ADD CONSTRAINT "proposals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposals" ADD CONSTRAINT "proposals_proposed_by_users_id_fk" FOREIGN KEY ("proposed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proposals" ADD CONSTRAINT "proposals_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "proposals_status_idx" ON "proposals" USING btree ("status","proposed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "proposals_one_open_key" ON "proposals" USING btree ("kind","target_id") WHERE "proposals"."status" = 'open';--> statement-breakpoint
ALTER TABLE "account_links" ADD CONSTRAINT "account_links_kind_valid" CHECK ("account_links"."kind" IN ('confirm_address', 'confirm_lock_off', 'not_me', 'staff_invite'));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_staff_role" CHECK (("users"."is_admin" AND "users"."role" IN ('owner', 'finance', 'support', 'auditor')) OR (NOT "users"."is_admin" AND "users"."role" IS NULL));