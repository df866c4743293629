-- Withdrawal limits: one policy row (no limits until an administrator sets them); its lock serialises the platform limit.
CREATE TABLE "withdrawal_policy" (
	"id" integer PRIMARY KEY NOT NULL,
	"per_investor_day" bigint,
	"per_investor_month" bigint,
	"platform_day" bigint,
	"updated_at" timestamp with time zone,
	"updated_by" uuid,
	CONSTRAINT "withdrawal_policy_one_row" CHECK ("withdrawal_policy"."id" = 1),
	CONSTRAINT "withdrawal_policy_positive" CHECK ("withdrawal_policy"."per_investor_day" > 0 AND "withdrawal_policy"."per_investor_month" > 0 AND "withdrawal_policy"."platform_day" > 0)
);
--> statement-breakpoint
ALTER TABLE "withdrawal_policy" ADD CONSTRAINT "withdrawal_policy_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
INSERT INTO "withdrawal_policy" ("id") VALUES (1);
