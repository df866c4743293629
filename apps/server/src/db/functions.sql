-- Every SQL function, view and trigger of the database, as it is now: guards (append-only tables), id functions
-- and the one definition of a deposit that counts. No trigger derives a figure (postMany writes the money
-- figures with the postings: ledger/ledger.ts). The migrations (a baseline, then later ones) hold the tables,
-- columns, indexes and data; this file is the current definition, applied after them whenever it changes
-- (db/functions.ts), so a change is made here and nowhere else. Only CREATE OR REPLACE: it may run on any
-- database migrated to the latest migration.

-- ------------------------------------------------------------------------------------------ append-only tables

CREATE OR REPLACE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only';
END $$;

CREATE OR REPLACE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger entries and transactions are append-only';
END $$;

CREATE OR REPLACE TRIGGER audit_log_no_update BEFORE UPDATE OR DELETE OR TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
CREATE OR REPLACE TRIGGER ledger_entries_no_update BEFORE UPDATE OR DELETE OR TRUNCATE ON ledger_entries
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();
CREATE OR REPLACE TRIGGER ledger_transactions_no_update BEFORE UPDATE OR DELETE OR TRUNCATE ON ledger_transactions
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();

-- ------------------------------------------------------------------------------------------ ids

-- Time-ordered ids (UUID version 7: 48 bits of Unix milliseconds, then random bits) for withdrawals: the rows
-- of one request land on the last pages of the primary key (decision 0056).
CREATE OR REPLACE FUNCTION hf_uuid7() RETURNS uuid LANGUAGE sql VOLATILE AS $$
  SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
           PLACING substring(int8send((extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3) FROM 1 FOR 6),
         52, 1), 53, 1), 'hex')::uuid
$$;

-- Cycle earning ids that begin with the first 6 bytes of their owner's id (then random bits; version 8): one
-- user's earnings share a few leaves of the key Withdraw All updates (decision 0058).
CREATE OR REPLACE FUNCTION hf_owner_uuid(owner uuid) RETURNS uuid LANGUAGE sql VOLATILE AS $$
  SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) PLACING substring(uuid_send(owner) FROM 1 FOR 6) FROM 1 FOR 6),
         54, 0), 55, 1), 'hex')::uuid
$$;

-- ------------------------------------------------------------------------------------------ which deposits count

-- The one definition of a deposit that counts as money deposited: confirmed, demo or on the chain. Exactly these
-- are booked as `deposit` ledger transactions (ledger:check), which Total Deposits, Deposits Received and a
-- user's lifetime deposits sum. An administrator's credit (admin_credit) is an adjustment, not a deposit.
CREATE OR REPLACE FUNCTION hf_deposit_counts(status text, type text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT status = 'confirmed' AND type IN ('demo', 'real')
$$;
