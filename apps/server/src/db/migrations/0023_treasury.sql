CREATE TABLE "deposit_sweeps" (
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"amount" bigint NOT NULL,
	"block_number" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deposit_sweeps_tx_hash_log_index_pk" PRIMARY KEY("tx_hash","log_index")
);
--> statement-breakpoint
CREATE TABLE "payout_batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"grouped" boolean NOT NULL,
	"token" text NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	"closed_by" uuid
);
--> statement-breakpoint
CREATE TABLE "payout_transfers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"to_address" text NOT NULL,
	"amount" bigint NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"withdrawal_ids" uuid[],
	"detail" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_by" uuid
);
--> statement-breakpoint
-- A payout transaction may pay several wallets (a Safe batch): one row per (hash, wallet) (decision 0071).
ALTER TABLE "payout_transactions" DROP CONSTRAINT "payout_transactions_pkey";--> statement-breakpoint
ALTER TABLE "payout_transactions" ADD CONSTRAINT "payout_transactions_tx_hash_wallet_address_pk" PRIMARY KEY("tx_hash","wallet_address");--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "batch_id" uuid;--> statement-breakpoint
CREATE INDEX "deposit_sweeps_block_idx" ON "deposit_sweeps" USING btree ("block_number");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_transfers_log_key" ON "payout_transfers" USING btree ("tx_hash","log_index");--> statement-breakpoint
CREATE INDEX "payout_transfers_open_idx" ON "payout_transfers" USING btree ("status") WHERE "payout_transfers"."status" <> 'matched';--> statement-breakpoint
CREATE INDEX "withdrawals_pending_wallet_idx" ON "withdrawals" USING btree ("wallet_address") WHERE "withdrawals"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "withdrawals_batch_idx" ON "withdrawals" USING btree ("batch_id") WHERE "withdrawals"."batch_id" IS NOT NULL;