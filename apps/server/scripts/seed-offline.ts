/**
 * The large seed's offline-only bulk load (bench/README.md, Method): for an empty database nothing else writes to.
 * It skips what protects concurrent writers (locks, balance checks, figure upkeep and index upkeep), so
 * requests never use it: money moves through ledger.ts's postMany. `ledger:check` proves what it wrote.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../src/db/client.ts';
import { rawRows } from '../src/db/raw.ts';
import type { PostSet } from '../src/ledger/ledger.ts';

/**
 * The transactions and entries of a PostSet in one statement, ids drawn from the sequence: no locks, no
 * balance check, no cached-balance update (`offlineSettleBalances` does that once at the end).
 */
export async function offlineBulkLoad(db: Db, set: PostSet): Promise<void> {
  const cols = set.legs.map((l, i) =>
    'userId' in l.account
      ? sql`(${l.account.userId})::uuid AS u${sql.raw(String(i))}, (${l.amount})::bigint AS a${sql.raw(String(i))}`
      : sql`NULL::uuid AS u${sql.raw(String(i))}, (${l.amount})::bigint AS a${sql.raw(String(i))}`,
  );
  const legs = set.legs.map((l, i) => {
    const account = 'userId' in l.account ? l.account.kind : l.account.platform;
    return sql`(t.u${sql.raw(String(i))}, ${account}::text, t.a${sql.raw(String(i))})`;
  });
  await db.execute(sql`WITH t AS MATERIALIZED (
      SELECT nextval(pg_get_serial_sequence('ledger_transactions', 'id')) AS txid, (${set.refId})::text AS ref_id,
        (${set.memo ?? sql`NULL`})::text AS memo, (${set.createdBy ?? sql`NULL`})::uuid AS created_by,
        coalesce((${set.createdAt ?? sql`NULL`})::timestamptz, now()) AS created_at, ${sql.join(cols, sql`, `)}
      FROM ${set.from} WHERE (${set.where ?? sql`TRUE`})),
    ins AS (INSERT INTO ledger_transactions (id, kind, ref_id, memo, created_by, created_at)
      SELECT txid, ${set.kind}, ref_id, memo, created_by, created_at FROM t)
    INSERT INTO ledger_entries (transaction_id, account_id, amount)
    SELECT t.txid, coalesce(ua.id, pa.id), x.amount
    FROM t CROSS JOIN LATERAL (VALUES ${sql.join(legs, sql`, `)}) AS x(user_id, account, amount)
    LEFT JOIN ledger_accounts ua ON ua.user_id = x.user_id AND ua.kind = x.account
    LEFT JOIN ledger_accounts pa ON x.user_id IS NULL AND pa.user_id IS NULL AND pa.kind = x.account
    WHERE x.amount <> 0`);
}

/** The newest ledger transaction id (0 when none): where a bulk load starts. */
export async function lastTransactionId(db: Db): Promise<number> {
  const [row] = await rawRows<{ id: string | number }>(
    db,
    sql`SELECT coalesce(max(id), 0) AS id FROM ledger_transactions`,
  );
  return Number(row?.id ?? 0);
}

/** Adds the entries of the transactions after `sinceTxId` to the cached balances of their user accounts, once. */
export async function offlineSettleBalances(db: Db, sinceTxId: number): Promise<void> {
  await db.execute(sql`UPDATE ledger_accounts a SET balance = a.balance + s.delta
    FROM (SELECT account_id, sum(amount) AS delta FROM ledger_entries WHERE transaction_id > ${sinceTxId} GROUP BY account_id) s
    WHERE a.id = s.account_id AND a.user_id IS NOT NULL AND s.delta <> 0`);
}

/**
 * Drops the foreign keys, unique constraints (but primary keys) and other indexes of `tables`, and returns
 * the statements that create them again, in an order that works (indexes, unique constraints, then keys).
 */
export async function offlineDropSecondaryIndexes(db: Db, tables: string[]): Promise<string[]> {
  const list = sql.join(
    tables.map((t) => sql`${t}::regclass`),
    sql`, `,
  );
  const constraints = await rawRows<{ tbl: string; name: string; type: string; def: string }>(
    db,
    sql`SELECT conrelid::regclass::text AS tbl, conname AS name, contype::text AS type, pg_get_constraintdef(oid) AS def
        FROM pg_constraint WHERE conrelid IN (${list}) AND contype IN ('f', 'u', 'x') ORDER BY contype = 'f' DESC, conname`,
  );
  const indexes = await rawRows<{ name: string; def: string }>(
    db,
    sql`SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS def FROM pg_index i
        WHERE i.indrelid IN (${list}) AND NOT i.indisprimary
          AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid AND c.conrelid = i.indrelid)
        ORDER BY 1`,
  );
  for (const c of constraints) await db.execute(sql.raw(`ALTER TABLE ${c.tbl} DROP CONSTRAINT ${c.name}`));
  for (const i of indexes) await db.execute(sql.raw(`DROP INDEX ${i.name}`));
  const add = (c: { tbl: string; name: string; def: string }) =>
    `ALTER TABLE ${c.tbl} ADD CONSTRAINT ${c.name} ${c.def}`;
  return [
    ...indexes.map((i) => i.def),
    ...constraints.filter((c) => c.type !== 'f').map(add),
    ...constraints.filter((c) => c.type === 'f').map(add),
  ];
}
