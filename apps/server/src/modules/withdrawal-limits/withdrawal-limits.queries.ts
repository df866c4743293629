import { eq, sql } from 'drizzle-orm';
import { SECURITY_EVENT_TYPES, type SecurityEventType } from '@harvest/shared/schemas/security';
import { NEW_DEVICE } from '@harvest/shared/security-texts';
import type { Db } from '../../db/client.ts';
import { rawRows } from '../../db/raw.ts';
import { withdrawalPolicy } from '../../db/schema.ts';
import { HOLD_TRIGGERS } from './hold-triggers.ts';

export type PolicyRow = typeof withdrawalPolicy.$inferSelect;

export async function readPolicy(db: Db): Promise<PolicyRow> {
  const [r] = await db.select().from(withdrawalPolicy).where(eq(withdrawalPolicy.id, 1));
  if (!r) throw new Error('withdrawal_policy has no row (migration 0005 inserts it)');
  return r;
}

/** The policy row, locked: a policy change, and every Withdraw All that counts against the platform limit, queue here. */
export async function lockPolicy(db: Db): Promise<PolicyRow> {
  const [r] = await db.select().from(withdrawalPolicy).where(eq(withdrawalPolicy.id, 1)).for('update');
  if (!r) throw new Error('withdrawal_policy has no row (migration 0005 inserts it)');
  return r;
}

export async function updatePolicy(
  db: Db,
  v: Pick<PolicyRow, 'perInvestorDay' | 'perInvestorMonth' | 'platformDay' | 'updatedAt' | 'updatedBy'>,
): Promise<PolicyRow> {
  const [r] = await db.update(withdrawalPolicy).set(v).where(eq(withdrawalPolicy.id, 1)).returning();
  if (!r) throw new Error('withdrawal_policy has no row (migration 0005 inserts it)');
  return r;
}

/** What counts against a limit: every withdrawal not rejected (pending or paid), gross, as the ledger held it. */
const counted = (since: Date, userId: string | null) =>
  sql`status IN ('pending', 'approved') AND requested_at > ${since.toISOString()}::timestamptz
      ${userId ? sql`AND user_id = ${userId}::uuid` : sql``}`;

/** The sum counted since `since`, of one investor or (null) of the whole platform. */
export async function usedSince(db: Db, since: Date, userId: string | null): Promise<bigint> {
  const [r] = await rawRows<{ used: bigint }>(
    db,
    sql`SELECT coalesce(sum(amount), 0)::bigint AS used FROM withdrawals WHERE ${counted(since, userId)}`,
  );
  return r?.used ?? 0n;
}

/** The requests counted since `since`, oldest first: when each leaves the window, and what it frees. */
export function requestsSince(db: Db, since: Date, userId: string | null) {
  return rawRows<{ requestId: string; at: Date; amount: bigint }>(
    db,
    sql`SELECT request_id AS "requestId", min(requested_at) AS at, sum(amount)::bigint AS amount FROM withdrawals
        WHERE ${counted(since, userId)} GROUP BY request_id ORDER BY at, request_id`,
  );
}

const plain = HOLD_TRIGGERS.filter((h) => !h.afterNewDevice).map((h) => h.type);
const afterNewDevice = HOLD_TRIGGERS.filter((h) => h.afterNewDevice).map((h) => h.type);
const list = (types: SecurityEventType[]) =>
  types.length
    ? sql.join(
        types.map((t) => sql`${t}`),
        sql`, `,
      )
    : sql`NULL`;

/** The newest event of the hold list after `since` (an address-book change only after a new-device sign-in). */
export async function latestHoldTrigger(
  db: Db,
  userId: string,
  since: Date,
  holdMs: number,
): Promise<{ at: Date; type: SecurityEventType } | null> {
  const [r] = await rawRows<{ at: Date; type: string }>(
    db,
    sql`SELECT e.created_at AS at, e.type FROM security_events e
        WHERE e.user_id = ${userId}::uuid AND e.created_at > ${since.toISOString()}::timestamptz
          AND (e.type IN (${list(plain)})
            OR e.type IN (${list(afterNewDevice)}) AND EXISTS (
              SELECT 1 FROM security_events s
              WHERE s.user_id = e.user_id AND s.type = 'sign_in' AND s.detail = ${NEW_DEVICE}
                AND s.created_at <= e.created_at
                AND s.created_at > e.created_at - make_interval(secs => ${holdMs / 1000})))
        ORDER BY e.created_at DESC LIMIT 1`,
  );
  const type = SECURITY_EVENT_TYPES.find((t) => t === r?.type);
  return r && type ? { at: r.at, type } : null;
}
