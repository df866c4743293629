CREATE TABLE "email_verifications" (
	"email" text PRIMARY KEY NOT NULL,
	"last_sent_at" timestamp with time zone,
	"wrong_tries" integer DEFAULT 0 NOT NULL,
	"window_start" timestamp with time zone,
	"locked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "throttle_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL,
	"reset_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "email_codes" DROP CONSTRAINT "email_codes_pkey";--> statement-breakpoint
ALTER TABLE "email_codes" ADD COLUMN "id" bigserial PRIMARY KEY NOT NULL;--> statement-breakpoint
CREATE INDEX "throttle_counters_reset_idx" ON "throttle_counters" USING btree ("reset_at");--> statement-breakpoint
CREATE INDEX "email_codes_email_idx" ON "email_codes" USING btree ("email","expires_at");--> statement-breakpoint
ALTER TABLE "email_codes" DROP COLUMN "attempts";