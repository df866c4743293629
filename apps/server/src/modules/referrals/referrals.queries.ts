import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rawRows } from '../../db/raw.ts';

/** Longest list per level (and of rewards) sent to a screen; counts and totals stay exact. */
export const REFERRAL_LIST_LIMIT = 1000;

export interface ReferrerLink {
  userId: string;
  level: 1 | 2 | 3;
}

/**
 * The investor's referrers, level 1 to 3, walked up users.referrer_id in one recursive query
 * (primary-key look-ups). Levels that do not exist are simply absent.
 */
export async function referrerChain(db: Db, userId: string): Promise<ReferrerLink[]> {
  const rows = await rawRows<{ id: string; level: number }>(
    db,
    sql`WITH RECURSIVE chain(id, level) AS (
          SELECT referrer_id, 1 FROM users WHERE id = ${userId}::uuid AND referrer_id IS NOT NULL
          UNION ALL
          SELECT u.referrer_id, c.level + 1 FROM chain c JOIN users u ON u.id = c.id
          WHERE c.level < 3 AND u.referrer_id IS NOT NULL
        )
        SELECT id::text AS id, level FROM chain ORDER BY level`,
  );
  return rows.flatMap((r) => {
    const level = Number(r.level);
    return level === 1 || level === 2 || level === 3 ? [{ userId: r.id, level }] : [];
  });
}

export interface ReferralMember {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  createdAt: Date;
}
export interface ReferralTreeData {
  totalReferrals: number;
  counts: [number, number, number];
  levels: [ReferralMember[], ReferralMember[], ReferralMember[]];
}

/**
 * The three levels below a user in one recursive query over users_referrer_idx (no per-node
 * round trips). Each level lists its newest `limit` members; counts are exact.
 * Reusable for any user id (the admin back office shows other users' trees).
 */
export async function referralTree(db: Db, userId: string, limit = REFERRAL_LIST_LIMIT): Promise<ReferralTreeData> {
  const rows = await rawRows<{
    level: number;
    id: string;
    first_name: string;
    last_name: string;
    email: string;
    created_at: Date;
    cnt: bigint;
  }>(
    db,
    sql`WITH RECURSIVE tree(id, level) AS (
          SELECT id, 1 FROM users WHERE referrer_id = ${userId}::uuid
          UNION ALL
          SELECT u.id, t.level + 1 FROM tree t JOIN users u ON u.referrer_id = t.id WHERE t.level < 3
        ),
        ranked AS (
          SELECT t.level, u.id, u.first_name, u.last_name, u.email, u.created_at,
                 row_number() OVER (PARTITION BY t.level ORDER BY u.created_at DESC, u.id) AS rn,
                 count(*) OVER (PARTITION BY t.level) AS cnt
          FROM tree t JOIN users u ON u.id = t.id
        )
        SELECT level, id::text AS id, first_name, last_name, email, created_at, cnt FROM ranked
        WHERE rn <= ${limit} ORDER BY level, rn`,
  );
  const counts: [number, number, number] = [0, 0, 0];
  const levels: [ReferralMember[], ReferralMember[], ReferralMember[]] = [[], [], []];
  for (const r of rows) {
    const i = Number(r.level) - 1;
    const list = levels[i];
    if (!list) continue;
    counts[i] = Number(r.cnt);
    list.push({
      id: r.id,
      firstName: r.first_name,
      lastName: r.last_name,
      email: r.email,
      createdAt: r.created_at,
    });
  }
  return { totalReferrals: counts[0] + counts[1] + counts[2], counts, levels };
}

export interface RewardRow {
  id: string;
  level: number;
  amount: bigint;
  fromFirstName: string;
  fromLastName: string;
  fromEmail: string;
  investmentAmount: bigint;
  createdAt: Date;
}

/** A user's referral rewards, newest first (at most `limit`), and their exact lifetime total. */
export async function referralRewardsOf(
  db: Db,
  userId: string,
  limit = REFERRAL_LIST_LIMIT,
): Promise<{ rewards: RewardRow[]; total: bigint }> {
  const [rows, totals] = await Promise.all([
    rawRows<{
      id: string;
      level: number;
      amount: bigint;
      first_name: string;
      last_name: string;
      email: string;
      investment_amount: bigint;
      created_at: Date;
    }>(
      db,
      sql`SELECT r.id::text AS id, r.level, r.amount, u.first_name, u.last_name, u.email, i.amount AS investment_amount, r.created_at
          FROM referral_rewards r JOIN users u ON u.id = r.from_user_id JOIN investments i ON i.id = r.investment_id
          WHERE r.user_id = ${userId}::uuid ORDER BY r.created_at DESC, r.id LIMIT ${limit}`,
    ),
    rawRows<{ total: bigint }>(
      db,
      sql`SELECT COALESCE(SUM(amount), 0)::bigint AS total FROM referral_rewards WHERE user_id = ${userId}::uuid`,
    ),
  ]);
  return {
    rewards: rows.map((r) => ({
      id: r.id,
      level: Number(r.level),
      amount: r.amount,
      fromFirstName: r.first_name,
      fromLastName: r.last_name,
      fromEmail: r.email,
      investmentAmount: r.investment_amount,
      createdAt: r.created_at,
    })),
    total: totals[0]?.total ?? 0n,
  };
}
