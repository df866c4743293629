-- Withdraw All of 1,000 earnings dirtied about 2,800 pages, 1,750 of them on withdrawals' indexes: the primary
-- key (gen_random_uuid) and the live-earning key (the earnings' random ids) put each new row on a random leaf
-- of a large index. Every page a transaction dirties first after a checkpoint is written whole to the WAL, and
-- at a million users those leaves are not in memory either (docs/decisions/0056-withdrawals-clustered-keys.md).
-- 1. New withdrawal ids are time-ordered (UUID version 7: 48 bits of Unix milliseconds, then random bits):
--    one request's rows land on the primary key's last pages.
-- 2. "One live withdrawal per earning" is enforced on (investment_id, cycle_earning_id): an earning's id decides
--    its investment (withdrawals_earning_fk), so the pair is unique exactly when the id is; one request's
--    entries share the pages of their investments.
CREATE FUNCTION hf_uuid7() RETURNS uuid LANGUAGE sql VOLATILE AS $$
  SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
           PLACING substring(int8send((extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3) FROM 1 FOR 6),
         52, 1), 53, 1), 'hex')::uuid
$$;--> statement-breakpoint
ALTER TABLE "withdrawals" ALTER COLUMN "id" SET DEFAULT hf_uuid7();--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawals_live_earning_key" ON "withdrawals" USING btree ("investment_id","cycle_earning_id") WHERE "withdrawals"."status" <> 'rejected' AND "withdrawals"."cycle_earning_id" IS NOT NULL;--> statement-breakpoint
DROP INDEX "withdrawals_live_cycle_earning_key";
