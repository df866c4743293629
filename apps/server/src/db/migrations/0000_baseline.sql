-- The schema as it stood after the 29 migrations it replaces (docs/decisions/0082): tables, indexes, types,
-- extensions and seeded rows. Functions, views and triggers are db/functions.sql's, applied after the migrations.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
-- The rows the rollup functions return (db/functions.sql).
CREATE TYPE "hf_delta" AS ("metric" text, "day" date, "slot" integer, "n" bigint);
--> statement-breakpoint
-- The default of withdrawals.id, so it must exist before that table; functions.sql replaces it with its own copy.
CREATE FUNCTION hf_uuid7() RETURNS uuid LANGUAGE sql VOLATILE AS $$
  SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
           PLACING substring(int8send((extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3) FROM 1 FOR 6),
         52, 1), 53, 1), 'hex')::uuid
$$;
--> statement-breakpoint
CREATE SEQUENCE "public"."deposit_address_seq" INCREMENT BY 1 MINVALUE 0 MAXVALUE 9223372036854775807 START WITH 0 CACHE 1;
--> statement-breakpoint
CREATE TABLE "account_links" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"token_hash" text NOT NULL,
	"target_id" uuid,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "account_links_kind_valid" CHECK ("account_links"."kind" IN ('confirm_address', 'confirm_lock_off', 'not_me'))
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"admin_id" uuid NOT NULL,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"note" text,
	"ip" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "balance_adjustments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"amount" bigint NOT NULL,
	"note" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "balance_adjustments_non_zero" CHECK ("balance_adjustments"."amount" <> 0)
);
--> statement-breakpoint
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
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"checked_at" timestamp with time zone,
	"head_block" bigint
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
	"error" text,
	"checked_payouts" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cycle_earnings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"investment_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"cycle_number" integer NOT NULL,
	"gross_amount" bigint NOT NULL,
	"withdrawal_requested" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cycle_earnings_gross_non_negative" CHECK ("cycle_earnings"."gross_amount" >= 0)
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
CREATE TABLE "deposits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"amount" bigint NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"type" text NOT NULL,
	"tx_hash" text,
	"log_index" integer,
	"from_address" text,
	"confirmations" integer DEFAULT 0 NOT NULL,
	"failure_reason" text,
	"note" text,
	"check_attempts" integer DEFAULT 0 NOT NULL,
	"next_check_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	"processed_by" uuid,
	"failure_kind" text,
	"dismissed_at" timestamp with time zone,
	"to_address" text,
	"block_number" bigint,
	"block_hash" text,
	CONSTRAINT "deposits_amount_positive" CHECK ("deposits"."amount" > 0),
	CONSTRAINT "deposits_status_valid" CHECK ("deposits"."status" IN ('pending','confirmed','failed')),
	CONSTRAINT "deposits_type_valid" CHECK ("deposits"."type" IN ('demo','real','admin_credit')),
	CONSTRAINT "deposits_failure_kind_valid" CHECK ("deposits"."failure_kind" IS NULL OR "deposits"."failure_kind" IN ('reverted','not_found','wrong_token','wrong_recipient','wrong_sender','wrong_amount','hash_taken','rejected'))
);
--> statement-breakpoint
CREATE TABLE "email_codes" (
	"email" text NOT NULL,
	"code_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	"id" bigserial PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_verifications" (
	"email" text PRIMARY KEY NOT NULL,
	"last_sent_at" timestamp with time zone,
	"wrong_tries" integer DEFAULT 0 NOT NULL,
	"window_start" timestamp with time zone,
	"locked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"user_id" uuid NOT NULL,
	"key" text NOT NULL,
	"route" text NOT NULL,
	"request_hash" text NOT NULL,
	"status" text NOT NULL,
	"response_status" integer,
	"response_body" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_user_id_key_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
CREATE TABLE "investments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"tier_id" uuid NOT NULL,
	"tier_name" text NOT NULL,
	"amount" bigint NOT NULL,
	"daily_rate_scaled" integer NOT NULL,
	"total_earned" bigint DEFAULT 0 NOT NULL,
	"cycles_completed" integer DEFAULT 0 NOT NULL,
	"earning_started" boolean DEFAULT false NOT NULL,
	"earning_completed" boolean DEFAULT false NOT NULL,
	"cycle_started_at" timestamp with time zone,
	"cycle_end_time" timestamp with time zone,
	"last_cycle_day" date,
	"withdrawal_approved_at" timestamp with time zone,
	"next_cycle_available_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "investments_amount_positive" CHECK ("investments"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "ledger_accounts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid,
	"kind" text NOT NULL,
	"balance" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "ledger_accounts_user_non_negative" CHECK ("ledger_accounts"."user_id" IS NULL OR "ledger_accounts"."balance" >= 0),
	CONSTRAINT "ledger_accounts_owner_matches_kind" CHECK (("ledger_accounts"."user_id" IS NULL) = ("ledger_accounts"."kind" LIKE 'platform\_%'))
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"transaction_id" bigint NOT NULL,
	"account_id" bigint NOT NULL,
	"amount" bigint NOT NULL,
	CONSTRAINT "ledger_entries_non_zero" CHECK ("ledger_entries"."amount" <> 0)
);
--> statement-breakpoint
CREATE TABLE "ledger_transactions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"ref_id" text NOT NULL,
	"memo" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
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
CREATE TABLE "onchain_balances" (
	"address" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"balance" bigint NOT NULL,
	"read_at" timestamp with time zone NOT NULL
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
	"closed_by" uuid,
	"downloaded_at" timestamp with time zone,
	"grace_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "payout_transactions" (
	"tx_hash" text NOT NULL,
	"request_id" uuid NOT NULL,
	"wallet_address" text NOT NULL,
	"chain_value" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_transactions_tx_hash_wallet_address_pk" PRIMARY KEY("tx_hash","wallet_address")
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
CREATE TABLE "recovery_codes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "referral_rewards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"from_user_id" uuid NOT NULL,
	"investment_id" uuid NOT NULL,
	"level" integer NOT NULL,
	"amount" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "referral_rewards_level" CHECK ("referral_rewards"."level" BETWEEN 1 AND 3),
	CONSTRAINT "referral_rewards_amount_positive" CHECK ("referral_rewards"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "rollups" (
	"metric" text NOT NULL,
	"day" date NOT NULL,
	"slot" integer NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "rollups_metric_day_slot_pk" PRIMARY KEY("metric","day","slot")
);
--> statement-breakpoint
CREATE TABLE "security_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"type" text NOT NULL,
	"ip" text,
	"device" text,
	"detail" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"ip" text,
	"device" text NOT NULL,
	"device_key" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "throttle_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL,
	"reset_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tiers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"amount" bigint NOT NULL,
	"daily_rate_scaled" integer NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tiers_amount_positive" CHECK ("tiers"."amount" > 0),
	CONSTRAINT "tiers_rate_range" CHECK ("tiers"."daily_rate_scaled" > 0 AND "tiers"."daily_rate_scaled" <= 1000000)
);
--> statement-breakpoint
CREATE TABLE "user_devices" (
	"user_id" uuid NOT NULL,
	"device_key" text NOT NULL,
	"first_seen_at" timestamp with time zone NOT NULL,
	CONSTRAINT "user_devices_user_id_device_key_pk" PRIMARY KEY("user_id","device_key")
);
--> statement-breakpoint
CREATE TABLE "user_totals" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"earnings" bigint DEFAULT 0 NOT NULL,
	"referral_rewards" bigint DEFAULT 0 NOT NULL,
	"deposits" bigint DEFAULT 0 NOT NULL,
	"adjustments" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"phone_country_code" text,
	"phone_number" text,
	"password_hash" text NOT NULL,
	"withdrawal_password_hash" text NOT NULL,
	"is_admin" boolean DEFAULT false NOT NULL,
	"is_blocked" boolean DEFAULT false NOT NULL,
	"token_version" integer DEFAULT 0 NOT NULL,
	"invitation_code" text,
	"referrer_id" uuid,
	"withdrawal_wallet" text,
	"totp_secret" text,
	"totp_enabled" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"totp_last_step" bigint,
	"mailbox" text,
	"withdrawal_lock" boolean DEFAULT false NOT NULL,
	"withdrawal_lock_ends_at" timestamp with time zone,
	"withdrawals_frozen" boolean DEFAULT false NOT NULL,
	"locale" text DEFAULT 'en' NOT NULL,
	CONSTRAINT "users_email_lower" CHECK ("users"."email" = lower("users"."email")),
	CONSTRAINT "users_admin_not_blocked" CHECK (NOT ("users"."is_admin" AND "users"."is_blocked"))
);
--> statement-breakpoint
CREATE TABLE "withdrawal_addresses" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"label" text NOT NULL,
	"address" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"usable_at" timestamp with time zone NOT NULL,
	"confirmed_at" timestamp with time zone,
	"removed_at" timestamp with time zone,
	"added_ip" text,
	"added_device" text,
	CONSTRAINT "withdrawal_addresses_lower" CHECK ("withdrawal_addresses"."address" = lower("withdrawal_addresses"."address"))
);
--> statement-breakpoint
CREATE TABLE "withdrawals" (
	"id" uuid PRIMARY KEY DEFAULT hf_uuid7() NOT NULL,
	"user_id" uuid NOT NULL,
	"request_id" uuid NOT NULL,
	"source" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"amount" bigint NOT NULL,
	"fee_amount" bigint NOT NULL,
	"net_amount" bigint NOT NULL,
	"cycle_earning_id" uuid,
	"investment_id" uuid,
	"cycle_number" integer,
	"wallet_address" text NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	"processed_by" uuid,
	"tx_hash" text,
	"notes" text,
	"non_earning_user_id" uuid GENERATED ALWAYS AS (CASE WHEN cycle_earning_id IS NULL THEN user_id END) STORED,
	"batch_id" uuid,
	"session_id" uuid,
	"payee_refused_at" timestamp with time zone,
	CONSTRAINT "withdrawals_status_valid" CHECK ("withdrawals"."status" IN ('pending','approved','rejected')),
	CONSTRAINT "withdrawals_source_valid" CHECK ("withdrawals"."source" IN ('earning','rewards','balance')),
	CONSTRAINT "withdrawals_earning_link" CHECK (("withdrawals"."source" = 'earning') = ("withdrawals"."cycle_earning_id" IS NOT NULL) AND ("withdrawals"."cycle_earning_id" IS NULL) = ("withdrawals"."investment_id" IS NULL)),
	CONSTRAINT "withdrawals_amounts" CHECK ("withdrawals"."amount" > 0 AND "withdrawals"."fee_amount" >= 0 AND "withdrawals"."net_amount" = "withdrawals"."amount" - "withdrawals"."fee_amount")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "account_links_token_key" ON "account_links" USING btree ("token_hash");
--> statement-breakpoint
CREATE INDEX "account_links_expires_idx" ON "account_links" USING btree ("expires_at");
--> statement-breakpoint
CREATE INDEX "audit_log_created_idx" ON "audit_log" USING btree ("created_at");
--> statement-breakpoint
CREATE INDEX "audit_log_action_idx" ON "audit_log" USING btree ("action","created_at");
--> statement-breakpoint
CREATE INDEX "audit_log_created_id_idx" ON "audit_log" USING btree ("created_at","id");
--> statement-breakpoint
CREATE INDEX "audit_log_action_created_id_idx" ON "audit_log" USING btree ("action","created_at","id");
--> statement-breakpoint
CREATE INDEX "audit_log_target_idx" ON "audit_log" USING btree ("target_id");
--> statement-breakpoint
CREATE INDEX "balance_adjustments_user_idx" ON "balance_adjustments" USING btree ("user_id","created_at");
--> statement-breakpoint
CREATE INDEX "chain_reconciliations_started_idx" ON "chain_reconciliations" USING btree ("started_at");
--> statement-breakpoint
CREATE UNIQUE INDEX "cycle_earnings_investment_cycle_key" ON "cycle_earnings" USING btree ("investment_id","cycle_number");
--> statement-breakpoint
CREATE INDEX "cycle_earnings_user_unrequested_idx" ON "cycle_earnings" USING btree ("user_id") WHERE NOT "cycle_earnings"."withdrawal_requested";
--> statement-breakpoint
CREATE UNIQUE INDEX "cycle_earnings_user_key" ON "cycle_earnings" USING btree ("user_id","id","investment_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_addresses_child_key" ON "deposit_addresses" USING btree ("child_index");
--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_addresses_address_key" ON "deposit_addresses" USING btree ("address");
--> statement-breakpoint
CREATE INDEX "deposit_sweeps_block_idx" ON "deposit_sweeps" USING btree ("block_number");
--> statement-breakpoint
CREATE UNIQUE INDEX "deposits_live_tx_hash_key" ON "deposits" USING btree ("tx_hash") WHERE "deposits"."status" <> 'failed' AND "deposits"."to_address" IS NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX "deposits_tx_log_key" ON "deposits" USING btree ("tx_hash","log_index");
--> statement-breakpoint
CREATE INDEX "deposits_user_created_idx" ON "deposits" USING btree ("user_id","created_at");
--> statement-breakpoint
CREATE INDEX "deposits_status_created_idx" ON "deposits" USING btree ("status","created_at");
--> statement-breakpoint
CREATE INDEX "deposits_created_idx" ON "deposits" USING btree ("created_at");
--> statement-breakpoint
CREATE INDEX "deposits_created_id_idx" ON "deposits" USING btree ("created_at","id");
--> statement-breakpoint
CREATE INDEX "deposits_status_created_id_idx" ON "deposits" USING btree ("status","created_at","id");
--> statement-breakpoint
CREATE INDEX "deposits_watched_pending_idx" ON "deposits" USING btree ("block_number") WHERE "deposits"."status" = 'pending' AND "deposits"."to_address" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "deposits_watched_unchecked_idx" ON "deposits" USING btree ("block_number") WHERE "deposits"."status" = 'failed' AND "deposits"."to_address" IS NOT NULL AND "deposits"."processed_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "email_codes_email_idx" ON "email_codes" USING btree ("email","expires_at");
--> statement-breakpoint
CREATE INDEX "idempotency_keys_expires_idx" ON "idempotency_keys" USING btree ("expires_at");
--> statement-breakpoint
CREATE INDEX "investments_user_idx" ON "investments" USING btree ("user_id","created_at");
--> statement-breakpoint
CREATE INDEX "investments_created_idx" ON "investments" USING btree ("created_at");
--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_user_kind_key" ON "ledger_accounts" USING btree ("user_id","kind");
--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_platform_kind_key" ON "ledger_accounts" USING btree ("kind") WHERE "ledger_accounts"."user_id" IS NULL;
--> statement-breakpoint
CREATE INDEX "ledger_entries_tx_idx" ON "ledger_entries" USING btree ("transaction_id");
--> statement-breakpoint
CREATE INDEX "ledger_entries_account_idx" ON "ledger_entries" USING btree ("account_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_transactions_kind_ref_key" ON "ledger_transactions" USING btree ("kind","ref_id");
--> statement-breakpoint
CREATE INDEX "ledger_transactions_created_idx" ON "ledger_transactions" USING btree ("created_at");
--> statement-breakpoint
CREATE INDEX "mail_outbox_due_idx" ON "mail_outbox" USING btree ("next_attempt_at","id") WHERE "mail_outbox"."sent_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "mail_outbox_user_idx" ON "mail_outbox" USING btree ("user_id","created_at");
--> statement-breakpoint
CREATE UNIQUE INDEX "payout_transfers_log_key" ON "payout_transfers" USING btree ("tx_hash","log_index");
--> statement-breakpoint
CREATE INDEX "payout_transfers_open_idx" ON "payout_transfers" USING btree ("status") WHERE "payout_transfers"."status" <> 'matched';
--> statement-breakpoint
CREATE INDEX "recovery_codes_user_idx" ON "recovery_codes" USING btree ("user_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "referral_rewards_investment_level_key" ON "referral_rewards" USING btree ("investment_id","level");
--> statement-breakpoint
CREATE INDEX "referral_rewards_user_idx" ON "referral_rewards" USING btree ("user_id","created_at");
--> statement-breakpoint
CREATE INDEX "security_events_user_idx" ON "security_events" USING btree ("user_id","created_at","id");
--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id","created_at");
--> statement-breakpoint
CREATE INDEX "throttle_counters_reset_idx" ON "throttle_counters" USING btree ("reset_at");
--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "users" USING btree ("email");
--> statement-breakpoint
CREATE UNIQUE INDEX "users_mailbox_key" ON "users" USING btree ("mailbox");
--> statement-breakpoint
CREATE UNIQUE INDEX "users_invitation_code_key" ON "users" USING btree ("invitation_code");
--> statement-breakpoint
CREATE INDEX "users_referrer_idx" ON "users" USING btree ("referrer_id");
--> statement-breakpoint
CREATE INDEX "users_created_at_idx" ON "users" USING btree ("created_at");
--> statement-breakpoint
CREATE INDEX "users_created_id_idx" ON "users" USING btree ("created_at","id");
--> statement-breakpoint
CREATE INDEX "withdrawal_addresses_user_idx" ON "withdrawal_addresses" USING btree ("user_id","created_at");
--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawal_addresses_live_key" ON "withdrawal_addresses" USING btree ("user_id","address") WHERE "withdrawal_addresses"."removed_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "withdrawals_user_requested_idx" ON "withdrawals" USING btree ("user_id","requested_at");
--> statement-breakpoint
CREATE INDEX "withdrawals_requested_key_idx" ON "withdrawals" USING btree ("requested_at",coalesce("cycle_number", 2147483647),"id");
--> statement-breakpoint
CREATE INDEX "withdrawals_status_requested_key_idx" ON "withdrawals" USING btree ("status","requested_at",coalesce("cycle_number", 2147483647),"id");
--> statement-breakpoint
CREATE INDEX "withdrawals_pending_wallet_idx" ON "withdrawals" USING btree ("wallet_address") WHERE "withdrawals"."status" = 'pending';
--> statement-breakpoint
CREATE INDEX "withdrawals_batch_idx" ON "withdrawals" USING btree ("batch_id") WHERE "withdrawals"."batch_id" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "withdrawals_tx_hash_idx" ON "withdrawals" USING btree ("tx_hash") WHERE "withdrawals"."tx_hash" IS NOT NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawals_live_earning_key" ON "withdrawals" USING btree ("investment_id","cycle_earning_id") WHERE "withdrawals"."status" <> 'rejected' AND "withdrawals"."cycle_earning_id" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "deposits_confirmed_created_amount_idx" ON "deposits" USING btree ("created_at") INCLUDE ("amount") WHERE "status" = 'confirmed';
--> statement-breakpoint
CREATE INDEX "investments_created_amount_idx" ON "investments" USING btree ("created_at") INCLUDE ("amount");
--> statement-breakpoint
CREATE INDEX "referral_rewards_user_amount_idx" ON "referral_rewards" USING btree ("user_id") INCLUDE ("amount");
--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_referrer_fk" FOREIGN KEY ("referrer_id") REFERENCES "users"("id");
--> statement-breakpoint
-- Back-office user search is a contains-search over "email first last" (docs/decisions/0012).
CREATE INDEX "users_search_trgm" ON "users" USING gin ((email || ' ' || first_name || ' ' || last_name) gin_trgm_ops);
--> statement-breakpoint
ALTER TABLE "account_links" ADD CONSTRAINT "account_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_admin_id_users_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "balance_adjustments" ADD CONSTRAINT "balance_adjustments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "cycle_earnings" ADD CONSTRAINT "cycle_earnings_investment_id_investments_id_fk" FOREIGN KEY ("investment_id") REFERENCES "public"."investments"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "cycle_earnings" ADD CONSTRAINT "cycle_earnings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "deposit_addresses" ADD CONSTRAINT "deposit_addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "investments" ADD CONSTRAINT "investments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "investments" ADD CONSTRAINT "investments_tier_id_tiers_id_fk" FOREIGN KEY ("tier_id") REFERENCES "public"."tiers"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_transaction_id_ledger_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."ledger_transactions"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_account_id_ledger_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."ledger_accounts"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "recovery_codes" ADD CONSTRAINT "recovery_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "referral_rewards" ADD CONSTRAINT "referral_rewards_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "referral_rewards" ADD CONSTRAINT "referral_rewards_from_user_id_users_id_fk" FOREIGN KEY ("from_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "referral_rewards" ADD CONSTRAINT "referral_rewards_investment_id_investments_id_fk" FOREIGN KEY ("investment_id") REFERENCES "public"."investments"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "security_events" ADD CONSTRAINT "security_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "user_devices" ADD CONSTRAINT "user_devices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "user_totals" ADD CONSTRAINT "user_totals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "withdrawal_addresses" ADD CONSTRAINT "withdrawal_addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_non_earning_user_id_users_id_fk" FOREIGN KEY ("non_earning_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_earning_fk" FOREIGN KEY ("user_id","cycle_earning_id","investment_id") REFERENCES "public"."cycle_earnings"("user_id","id","investment_id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
INSERT INTO "ledger_accounts" ("user_id", "kind") VALUES
  (NULL, 'platform_deposits'), (NULL, 'platform_payouts'), (NULL, 'platform_fees'),
  (NULL, 'platform_reward_expense'), (NULL, 'platform_earning_expense'), (NULL, 'platform_adjustments');
