ALTER TABLE "users" ADD CONSTRAINT "users_referrer_fk" FOREIGN KEY ("referrer_id") REFERENCES "users"("id");
--> statement-breakpoint
INSERT INTO "ledger_accounts" ("user_id", "kind") VALUES
  (NULL, 'platform_deposits'), (NULL, 'platform_payouts'), (NULL, 'platform_fees'),
  (NULL, 'platform_reward_expense'), (NULL, 'platform_earning_expense'), (NULL, 'platform_adjustments');
--> statement-breakpoint
CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER audit_log_no_update BEFORE UPDATE OR DELETE OR TRUNCATE ON "audit_log"
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
--> statement-breakpoint
CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger entries and transactions are append-only';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER ledger_entries_no_update BEFORE UPDATE OR DELETE OR TRUNCATE ON "ledger_entries"
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();
--> statement-breakpoint
CREATE TRIGGER ledger_transactions_no_update BEFORE UPDATE OR DELETE OR TRUNCATE ON "ledger_transactions"
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();
