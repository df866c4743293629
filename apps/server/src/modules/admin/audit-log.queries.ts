import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rawRows } from '../../db/raw.ts';
import { keysetPage, type PageRequest } from '../../db/keyset.ts';

export interface AuditFilter {
  action?: string;
  adminId?: string;
  targetId?: string;
}

function auditWhere(f: AuditFilter): SQL {
  const parts: SQL[] = [sql`TRUE`];
  if (f.action) parts.push(sql`a.action = ${f.action}`);
  if (f.adminId) parts.push(sql`a.admin_id = ${f.adminId}::uuid`);
  if (f.targetId) parts.push(sql`a.target_id = ${f.targetId}`);
  return sql.join(parts, sql` AND `);
}

/**
 * Newest entries first, one keyset page; the total counts the matching rows (on audit_log_action_idx for an
 * action).
 */
export async function auditPage(db: Db, f: AuditFilter, page: PageRequest) {
  const where = auditWhere(f);
  const [c] = await rawRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM audit_log a WHERE ${where}`);
  const total = Number(c?.n ?? 0);
  const res = await keysetPage<{
    id: bigint;
    action: string;
    target_type: string;
    target_id: string;
    before: unknown;
    after: unknown;
    note: string | null;
    ip: string | null;
    created_at: Date;
    admin_id: string | null;
    first_name: string | null;
    last_name: string | null;
    email: string | null;
    subject_id: string | null;
    subject_first_name: string | null;
    subject_last_name: string | null;
    subject_email: string | null;
    tier_name: string | null;
    batch_id: string | null;
    batch_created_at: Date | null;
    batch_withdrawals: number | null;
    batch_total: string | null;
    k: string[];
  }>(
    db,
    {
      from: sql`audit_log a`,
      where,
      key: [
        { expr: sql`a.created_at`, type: 'timestamptz' },
        { expr: sql`a.id`, type: 'bigint' },
      ],
      // Who the action concerns (the user, or the owner of the deposit or withdrawal) and the tier's name, so the
      // log reads in names rather than ids. Each CASE casts only ids of its own kind (an export's target is a word).
      // The payout batch (its own entries, or a withdrawal's that records one) with what it holds. No administrator:
      // the platform acted (the watcher).
      rows: sql`SELECT a.id, a.action, a.target_type, a.target_id, a.before, a.after, a.note, a.ip, a.created_at,
                       u.id AS admin_id, u.first_name, u.last_name, u.email, pk.k,
                       s.id AS subject_id, s.first_name AS subject_first_name, s.last_name AS subject_last_name,
                       s.email AS subject_email, t.name AS tier_name,
                       b.id AS batch_id, b.created_at AS batch_created_at, bf.withdrawals AS batch_withdrawals,
                       bf.total AS batch_total
                FROM page_keys pk JOIN audit_log a ON a.id = pk.k1 LEFT JOIN users u ON u.id = a.admin_id
                LEFT JOIN users s ON s.id = CASE a.target_type
                  WHEN 'user' THEN a.target_id::uuid
                  WHEN 'deposit' THEN (SELECT d.user_id FROM deposits d WHERE d.id = a.target_id::uuid)
                  WHEN 'withdrawal' THEN (SELECT w.user_id FROM withdrawals w WHERE w.id = a.target_id::uuid)
                END
                LEFT JOIN tiers t ON t.id = CASE WHEN a.target_type = 'tier' THEN a.target_id::uuid END
                LEFT JOIN payout_batches b ON b.id = CASE a.target_type
                  WHEN 'payout_batch' THEN a.target_id::uuid
                  WHEN 'withdrawal' THEN (a.after->>'batchId')::uuid
                END
                LEFT JOIN LATERAL (
                  SELECT count(*)::int AS withdrawals, COALESCE(sum(w.net_amount), 0)::text AS total
                  FROM withdrawals w WHERE w.batch_id = b.id AND w.status <> 'rejected'
                ) bf ON b.id IS NOT NULL
                ORDER BY pk.ord`,
    },
    page,
    total,
  );
  return {
    total,
    nextCursor: res.nextCursor,
    prevCursor: res.prevCursor,
    rows: res.rows.map((r) => ({
      id: String(r.id),
      action: r.action,
      targetType: r.target_type,
      targetId: r.target_id,
      before: r.before,
      after: r.after,
      note: r.note,
      ip: r.ip,
      createdAt: r.created_at.toISOString(),
      admin:
        r.admin_id === null
          ? null
          : { id: r.admin_id, firstName: r.first_name ?? '', lastName: r.last_name ?? '', email: r.email ?? '' },
      subject:
        r.subject_id === null
          ? null
          : {
              id: r.subject_id,
              firstName: r.subject_first_name ?? '',
              lastName: r.subject_last_name ?? '',
              email: r.subject_email ?? '',
            },
      tierName: r.tier_name,
      batch:
        r.batch_id === null || r.batch_created_at === null
          ? null
          : {
              id: r.batch_id,
              createdAt: r.batch_created_at.toISOString(),
              withdrawals: r.batch_withdrawals ?? 0,
              total: BigInt(r.batch_total ?? '0'),
            },
    })),
  };
}

/** Distinct audit actions by a loose index scan on audit_log_action_idx (one probe per action, not per row). */
export async function auditActions(db: Db): Promise<string[]> {
  const rows = await rawRows<{ action: string }>(
    db,
    sql`WITH RECURSIVE t AS (
          SELECT min(action) AS action FROM audit_log
          UNION ALL
          SELECT (SELECT min(a.action) FROM audit_log a WHERE a.action > t.action) FROM t WHERE t.action IS NOT NULL
        ) SELECT action FROM t WHERE action IS NOT NULL`,
  );
  return rows.map((r) => r.action);
}
