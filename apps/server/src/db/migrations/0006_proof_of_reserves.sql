-- Proof of reserves: published snapshots (their leaves, upper tree levels and reserves), and the ledger's hash chain
-- extended after commit.
CREATE TABLE "ledger_chain" (
	"transaction_id" bigint PRIMARY KEY NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_chain_state" (
	"id" integer PRIMARY KEY NOT NULL,
	"head_id" bigint NOT NULL,
	"head_hash" text NOT NULL,
	"seen_max_id" bigint NOT NULL,
	"seen_xmax" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "por_leaves" (
	"snapshot_id" uuid NOT NULL,
	"idx" integer NOT NULL,
	"user_id" uuid NOT NULL,
	"amount" bigint NOT NULL,
	CONSTRAINT "por_leaves_snapshot_id_idx_pk" PRIMARY KEY("snapshot_id","idx")
);
--> statement-breakpoint
CREATE TABLE "por_nodes" (
	"snapshot_id" uuid NOT NULL,
	"level" integer NOT NULL,
	"idx" integer NOT NULL,
	"hash" text NOT NULL,
	"sum" bigint NOT NULL,
	CONSTRAINT "por_nodes_snapshot_id_level_idx_pk" PRIMARY KEY("snapshot_id","level","idx")
);
--> statement-breakpoint
CREATE TABLE "por_reserves" (
	"snapshot_id" uuid NOT NULL,
	"address" text NOT NULL,
	"kind" text NOT NULL,
	"balance" bigint NOT NULL,
	"signature" text,
	"verified" boolean DEFAULT false NOT NULL,
	CONSTRAINT "por_reserves_snapshot_id_address_pk" PRIMARY KEY("snapshot_id","address")
);
--> statement-breakpoint
CREATE TABLE "por_snapshots" (
	"id" uuid PRIMARY KEY NOT NULL,
	"taken_at" timestamp with time zone NOT NULL,
	"root" text NOT NULL,
	"total" bigint NOT NULL,
	"leaves" integer NOT NULL,
	"block_number" bigint,
	"salt_key" text NOT NULL,
	"ledger_tx_id" bigint,
	"ledger_head" text
);
--> statement-breakpoint
ALTER TABLE "por_leaves" ADD CONSTRAINT "por_leaves_snapshot_id_por_snapshots_id_fk" FOREIGN KEY ("snapshot_id") REFERENCES "public"."por_snapshots"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "por_nodes" ADD CONSTRAINT "por_nodes_snapshot_id_por_snapshots_id_fk" FOREIGN KEY ("snapshot_id") REFERENCES "public"."por_snapshots"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "por_reserves" ADD CONSTRAINT "por_reserves_snapshot_id_por_snapshots_id_fk" FOREIGN KEY ("snapshot_id") REFERENCES "public"."por_snapshots"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "por_leaves_user_key" ON "por_leaves" USING btree ("snapshot_id","user_id");--> statement-breakpoint
CREATE INDEX "por_snapshots_taken_idx" ON "por_snapshots" USING btree ("taken_at");