CREATE INDEX "cycle_earnings_user_idx" ON "cycle_earnings" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "users_created_id_idx" ON "users" USING btree ("created_at","id");