-- Withdraw All marks each earning requested. The update adds an entry to cycle_earnings' primary key (it cannot
-- stay on its page: withdrawal_requested is in a partial index), and with random ids every entry went to a random
-- leaf: 1,000 earnings dirtied about 1,000 leaves, each read from disk on a large database and written whole to the
-- WAL after a checkpoint (docs/decisions/0058-earnings-owner-ids.md). New earning ids begin with the first 6 bytes
-- of their owner's id (then 74 random bits; version 8, RFC 9562's custom layout), so one user's earnings share a
-- few leaves of the key.
CREATE FUNCTION hf_owner_uuid(owner uuid) RETURNS uuid LANGUAGE sql VOLATILE AS $$
  SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) PLACING substring(uuid_send(owner) FROM 1 FOR 6) FROM 1 FOR 6),
         54, 0), 55, 1), 'hex')::uuid
$$;
