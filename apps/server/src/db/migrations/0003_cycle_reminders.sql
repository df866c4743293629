-- Cycle reminders: the investor's opt-in (off by default), and per investment when the running cycle's
-- ready-to-complete e-mail was queued, so one sweep of one instance claims it once.
ALTER TABLE "investments" ADD COLUMN "cycle_reminder_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "cycle_reminders" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "investments_reminder_due_idx" ON "investments" USING btree ("cycle_end_time") WHERE "investments"."earning_started" AND "investments"."cycle_reminder_sent_at" IS NULL;