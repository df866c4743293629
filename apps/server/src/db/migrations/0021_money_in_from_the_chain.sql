CREATE TABLE "chain_alarms" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"detail" text NOT NULL,
	"block_number" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"acknowledged_at" timestamp with time zone,
	"acknowledged_by" uuid
);
--> statement-breakpoint
CREATE TABLE "chain_reconciliations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"trigger" text NOT NULL,
	"requested_by" uuid,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"status" text NOT NULL,
	"through_block" bigint,
	"checked_deposits" integer DEFAULT 0 NOT NULL,
	"checked_transfers" integer DEFAULT 0 NOT NULL,
	"checked_addresses" integer DEFAULT 0 NOT NULL,
	"difference_count" integer DEFAULT 0 NOT NULL,
	"differences" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error" text
);
--> statement-breakpoint
ALTER TABLE "chain_cursors" ADD COLUMN "checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chain_cursors" ADD COLUMN "head_block" bigint;--> statement-breakpoint
CREATE INDEX "chain_reconciliations_started_idx" ON "chain_reconciliations" USING btree ("started_at");