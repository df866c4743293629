CREATE SEQUENCE "public"."deposit_address_seq" INCREMENT BY 1 MINVALUE 0 MAXVALUE 9223372036854775807 START WITH 0 CACHE 1;--> statement-breakpoint
CREATE TABLE "chain_checkpoints" (
	"name" text NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	CONSTRAINT "chain_checkpoints_name_block_number_pk" PRIMARY KEY("name","block_number")
);
--> statement-breakpoint
CREATE TABLE "chain_cursors" (
	"name" text PRIMARY KEY NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"lease_owner" text,
	"lease_until" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deposit_addresses" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"child_index" bigint NOT NULL,
	"address" text NOT NULL,
	"from_block" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "onchain_balances" (
	"address" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"balance" bigint NOT NULL,
	"read_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
DROP INDEX "deposits_live_tx_hash_key";--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "to_address" text;--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "block_number" bigint;--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "block_hash" text;--> statement-breakpoint
ALTER TABLE "deposit_addresses" ADD CONSTRAINT "deposit_addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_addresses_child_key" ON "deposit_addresses" USING btree ("child_index");--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_addresses_address_key" ON "deposit_addresses" USING btree ("address");--> statement-breakpoint
CREATE INDEX "deposits_watched_pending_idx" ON "deposits" USING btree ("block_number") WHERE "deposits"."status" = 'pending' AND "deposits"."to_address" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "deposits_live_tx_hash_key" ON "deposits" USING btree ("tx_hash") WHERE "deposits"."status" <> 'failed' AND "deposits"."to_address" IS NULL;