-- Withdraw All of 1,000 earnings inserts 1,000 withdrawals in one statement, and PostgreSQL pays every
-- index and every foreign key of withdrawals once per row (docs/decisions/0053-withdraw-all-one-hold.md).
-- The hold of a request is now one ledger transaction (`withdrawal_request_hold`, ref = the request id):
-- no schema change for that. Here, with the integrity kept (and for an earning withdrawal made stronger):
-- 1. One foreign key per earning withdrawal instead of three: (user_id, cycle_earning_id, investment_id)
--    references the earning of that owner and investment (cycle_earnings_user_key, which takes the place of
--    cycle_earnings_user_idx and serves its look-ups by user_id). withdrawals_earning_link keeps every earning
--    withdrawal under it (MATCH SIMPLE skips a row with a null column). The owner of a rewards or balance
--    withdrawal is checked through non_earning_user_id (null for an earning's: no check to run).
-- 2. withdrawals_requested_idx (requested_at) and withdrawals_status_requested_idx (status, requested_at) are
--    prefixes of the keyset indexes withdrawals_requested_key_idx and withdrawals_status_requested_key_idx,
--    which serve the same look-ups; the payout-hash index holds decided withdrawals only (a pending one has
--    no hash).
CREATE UNIQUE INDEX "cycle_earnings_user_key" ON "cycle_earnings" USING btree ("user_id","id","investment_id");--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_earning_link" CHECK (("withdrawals"."source" = 'earning') = ("withdrawals"."cycle_earning_id" IS NOT NULL) AND ("withdrawals"."cycle_earning_id" IS NULL) = ("withdrawals"."investment_id" IS NULL));--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "non_earning_user_id" uuid GENERATED ALWAYS AS (CASE WHEN cycle_earning_id IS NULL THEN user_id END) STORED;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_non_earning_user_id_users_id_fk" FOREIGN KEY ("non_earning_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_earning_fk" FOREIGN KEY ("user_id","cycle_earning_id","investment_id") REFERENCES "public"."cycle_earnings"("user_id","id","investment_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" DROP CONSTRAINT "withdrawals_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "withdrawals" DROP CONSTRAINT "withdrawals_cycle_earning_id_cycle_earnings_id_fk";--> statement-breakpoint
ALTER TABLE "withdrawals" DROP CONSTRAINT "withdrawals_investment_id_investments_id_fk";--> statement-breakpoint
DROP INDEX "cycle_earnings_user_idx";--> statement-breakpoint
DROP INDEX "withdrawals_status_requested_idx";--> statement-breakpoint
DROP INDEX "withdrawals_requested_idx";--> statement-breakpoint
DROP INDEX "withdrawals_tx_hash_idx";--> statement-breakpoint
CREATE INDEX "withdrawals_tx_hash_idx" ON "withdrawals" USING btree ("tx_hash") WHERE "withdrawals"."tx_hash" IS NOT NULL;
