CREATE TABLE "mail_outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"user_id" uuid,
	"to_address" text NOT NULL,
	"subject" text NOT NULL,
	"text_body" text NOT NULL,
	"html_body" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "failure_kind" text;--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "dismissed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mail_outbox_due_idx" ON "mail_outbox" USING btree ("next_attempt_at","id") WHERE "mail_outbox"."sent_at" IS NULL;--> statement-breakpoint
CREATE INDEX "mail_outbox_user_idx" ON "mail_outbox" USING btree ("user_id","created_at");--> statement-breakpoint
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_failure_kind_valid" CHECK ("deposits"."failure_kind" IS NULL OR "deposits"."failure_kind" IN ('reverted','not_found','wrong_token','wrong_recipient','wrong_sender','wrong_amount','hash_taken','rejected'));--> statement-breakpoint
-- Failed deposits from before failure kinds: a wrong sender is recognisable by its reason's words.
UPDATE "deposits" SET "failure_kind" = 'wrong_sender' WHERE "status" = 'failed' AND "failure_reason" LIKE 'Wrong sender:%';
