import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rawRows } from '../db/raw.ts';
import { inTransaction } from '../db/tx.ts';

/**
 * The ledger's hash chain (tamper evidence): link(t) = sha256(link(previous) || "id|kind|ref_id|account:amount,..."),
 * over every ledger transaction in id order, its entries in id order; the first link's previous is 32 zero bytes.
 * It is extended after commit by a job and by each proof-of-reserves snapshot, never inside a money transaction.
 *
 * Ids commit out of order (a transaction can take id 10 and commit after 11), and a rolled-back one leaves a gap:
 * the chain stops at a gap until every database transaction that was running when the gap was seen has ended
 * (pg_current_snapshot's xmin has passed the xmax recorded then). After that the id can never appear.
 */
export const GENESIS = `0x${'00'.repeat(32)}`;
const BATCH = 5_000;

interface TxRow {
  id: string;
  kind: string;
  ref_id: string;
  entries: string;
}

/** The transactions with id > after, up to `limit`, with their entries as "account:amount,..." in entry order. */
function transactionsAfter(db: Db, after: number, limit: number, upTo?: number): Promise<TxRow[]> {
  return rawRows<TxRow>(
    db,
    sql`SELECT t.id::text AS id, t.kind, t.ref_id,
          coalesce((SELECT string_agg(e.account_id || ':' || e.amount, ',' ORDER BY e.id) FROM ledger_entries e
                    WHERE e.transaction_id = t.id), '') AS entries
        FROM ledger_transactions t WHERE t.id > ${after} ${upTo === undefined ? sql`` : sql`AND t.id <= ${upTo}`}
        ORDER BY t.id LIMIT ${limit}`,
  );
}

export function link(previous: string, t: { id: string; kind: string; ref_id: string; entries: string }): string {
  return `0x${createHash('sha256')
    .update(Buffer.from(previous.slice(2), 'hex'))
    .update(`${t.id}|${t.kind}|${t.ref_id}|${t.entries}`)
    .digest('hex')}`;
}

/** Extends the chain over every transaction that can no longer be preceded by another; returns the head. */
export async function extendChain(db: Db): Promise<{ headId: number; headHash: string }> {
  for (;;) {
    const r = await inTransaction(db, async (tx) => {
      await tx.execute(
        sql`INSERT INTO ledger_chain_state (id, head_id, head_hash, seen_max_id, seen_xmax) VALUES (1, 0, ${GENESIS}, 0, '0')
            ON CONFLICT (id) DO NOTHING`,
      );
      const [state] = await rawRows<{
        head_id: string;
        head_hash: string;
        seen_max_id: string;
        settled: boolean;
        xmax: string;
        max_id: string;
      }>(
        tx,
        sql`SELECT s.head_id::text, s.head_hash, s.seen_max_id::text,
              pg_snapshot_xmin(pg_current_snapshot())::text::numeric >= s.seen_xmax::numeric AS settled,
              pg_snapshot_xmax(pg_current_snapshot())::text AS xmax,
              (SELECT coalesce(max(id), 0) FROM ledger_transactions)::text AS max_id
            FROM ledger_chain_state s WHERE s.id = 1 FOR UPDATE`,
      );
      if (!state) throw new Error('ledger chain state missing');
      let headId = Number(state.head_id);
      let headHash = state.head_hash;
      // Gaps at or below this id are final: every transaction that could have filled them has ended.
      const settledTo = state.settled ? Number(state.seen_max_id) : headId;
      const rows = await transactionsAfter(tx, headId, BATCH);
      const links: { id: number; hash: string }[] = [];
      for (const row of rows) {
        const id = Number(row.id);
        if (id !== headId + 1 && id - 1 > settledTo) break;
        headHash = link(headHash, row);
        headId = id;
        links.push({ id, hash: headHash });
      }
      if (links.length > 0) {
        await tx.execute(
          sql`INSERT INTO ledger_chain (transaction_id, hash)
              SELECT l.id, l.hash FROM jsonb_to_recordset(${JSON.stringify(links)}::jsonb) AS l(id bigint, hash text)`,
        );
      }
      // A new watch starts only when the previous one has settled, so that one does settle.
      await tx.execute(
        sql`UPDATE ledger_chain_state SET head_id = ${headId}, head_hash = ${headHash}
            ${state.settled ? sql`, seen_max_id = ${Number(state.max_id)}, seen_xmax = ${state.xmax}` : sql``} WHERE id = 1`,
      );
      return { headId, headHash, more: links.length === BATCH };
    });
    if (!r.more) return { headId: r.headId, headHash: r.headHash };
  }
}

export interface ChainBreak {
  transactionId: number;
  detail: string;
}

/**
 * Recomputes the chain from the ledger as it is now and compares it with the stored links: the first transaction
 * whose link no longer matches (an entry edited, a transaction deleted or inserted before the head), or null.
 */
export async function checkChain(db: Db): Promise<ChainBreak | null> {
  const [state] = await rawRows<{ head_id: string }>(
    db,
    sql`SELECT head_id::text FROM ledger_chain_state WHERE id = 1`,
  );
  const headId = Number(state?.head_id ?? 0);
  let previous = GENESIS;
  let after = 0;
  // Links and transactions are walked together in id order: a link without its transaction is a deletion.
  for (;;) {
    const links = await rawRows<{ id: string; hash: string }>(
      db,
      sql`SELECT transaction_id::text AS id, hash FROM ledger_chain WHERE transaction_id > ${after} AND transaction_id <= ${headId}
          ORDER BY transaction_id LIMIT ${BATCH}`,
    );
    if (links.length === 0) return null;
    const last = Number(links[links.length - 1]!.id);
    const rows = new Map((await transactionsAfter(db, after, BATCH * 2, last)).map((r) => [Number(r.id), r]));
    for (const l of links) {
      const id = Number(l.id);
      const row = rows.get(id);
      if (!row) return { transactionId: id, detail: 'it is in the chain but no longer in the ledger (deleted)' };
      rows.delete(id);
      previous = link(previous, row);
      if (previous !== l.hash)
        return { transactionId: id, detail: 'its entries, kind or reference no longer hash to its link (edited)' };
    }
    const extra = [...rows.keys()].find((id) => id < last);
    if (extra !== undefined)
      return {
        transactionId: extra,
        detail: 'it is in the ledger below the chain head but not in the chain (inserted)',
      };
    after = last;
  }
}
