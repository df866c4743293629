import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rawRows } from '../../db/raw.ts';
import type { UserAccountKind } from '../../db/schema.ts';

/**
 * The user accounts a statement's balance covers (docs/decisions/0073): everything the investor holds with the
 * platform except invested principal, which never comes back (docs/DOMAIN.md). A movement between two of them (a
 * withdrawal's hold, its release) changes nothing; one with any other account (a platform account, `invested`) is a
 * line of the statement.
 */
export const STATEMENT_ACCOUNTS = [
  'balance',
  'rewards',
  'earnings',
  'pending_withdrawal',
] as const satisfies readonly UserAccountKind[];

export interface StatementOwner {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  /** The language the statement is written in (users.locale); AuthUser rows carry it too. */
  locale: string;
}

/** One counter-entry of a ledger transaction that moved money in or out of the covered accounts. */
export interface StatementRow {
  tx_id: string | number;
  kind: string;
  ref_id: string;
  created_at: Date;
  /** When it was booked, in the platform time zone ("2026-11-03 14:05"). */
  local_at: string;
  /** The counter-entry: its account and amount (the covered accounts moved by minus this). */
  counter_kind: string;
  counter_amount: bigint;
  deposit_tx_hash: string | null;
  tier_name: string | null;
  cycle_number: number | null;
  reward_level: number | null;
  reward_from: string | null;
  w_source: string | null;
  w_wallet: string | null;
  w_tx_hash: string | null;
  w_cycle_number: number | null;
  w_tier_name: string | null;
  /** An administrator's balance change that two staff members decided (four-eyes). */
  two_person: boolean | null;
}

export interface StatementFigures {
  /** Sum of the covered accounts' entries booked before the period. */
  opening: bigint;
  /** The same before the period's end: opening plus the lines, by the ledger's own sum. */
  closing: bigint;
  rows: StatementRow[];
}

/**
 * The figures of one statement in one statement (one snapshot): the opening and closing sums of the covered
 * accounts' entries, and every counter-entry of the period's transactions that moved the covered total, with
 * the business row it came from (a payout's fee after what it sent; ledger ref_id; the CASE keeps the uuid cast to the kind whose ref is that
 * table's id). The period is [from 00:00, to + 1 day 00:00) in the platform time zone.
 */
export async function statementFigures(
  db: Db,
  userId: string,
  period: { from: string; to: string; timeZone: string },
): Promise<StatementFigures> {
  const tz = period.timeZone;
  const rows = await rawRows<{ opening: bigint; closing: bigint } & ({ tx_id: null } | StatementRow)>(
    db,
    sql`WITH acc AS MATERIALIZED (
          SELECT id FROM ledger_accounts WHERE user_id = ${userId}::uuid
            AND kind IN (${sql.join(
              STATEMENT_ACCOUNTS.map((k) => sql`${k}`),
              sql`, `,
            )})),
        bounds AS MATERIALIZED (
          SELECT (${period.from}::date)::timestamp AT TIME ZONE ${tz} AS lo,
                 ((${period.to}::date) + 1)::timestamp AT TIME ZONE ${tz} AS hi),
        txs AS MATERIALIZED (
          SELECT t.id, t.kind, t.ref_id, t.created_at, m.delta
          FROM (SELECT e.transaction_id, sum(e.amount) AS delta FROM ledger_entries e
                WHERE e.account_id IN (SELECT id FROM acc) GROUP BY 1) m
          JOIN ledger_transactions t ON t.id = m.transaction_id
          CROSS JOIN bounds b
          WHERE t.created_at < b.hi),
        sums AS (
          SELECT coalesce(sum(delta) FILTER (WHERE created_at < (SELECT lo FROM bounds)), 0)::bigint AS opening,
                 coalesce(sum(delta), 0)::bigint AS closing
          FROM txs)
        SELECT s.opening, s.closing, l.* FROM sums s
        LEFT JOIN LATERAL (
          SELECT t.id AS tx_id, t.kind, t.ref_id, t.created_at,
                 to_char(t.created_at AT TIME ZONE ${tz}, 'YYYY-MM-DD HH24:MI') AS local_at,
                 ca.kind AS counter_kind, ce.amount AS counter_amount, ce.id AS entry_id,
                 (ca.kind = 'platform_fees') AS fee_last,
                 d.tx_hash AS deposit_tx_hash,
                 coalesce(i.tier_name, ci.tier_name) AS tier_name, c.cycle_number,
                 r.level AS reward_level, trim(ru.first_name || ' ' || ru.last_name) AS reward_from,
                 w.source AS w_source, w.wallet_address AS w_wallet, w.tx_hash AS w_tx_hash,
                 w.cycle_number AS w_cycle_number, wi.tier_name AS w_tier_name,
                 (ba.approved_by IS NOT NULL) AS two_person
          FROM txs t
          JOIN ledger_entries ce ON ce.transaction_id = t.id AND ce.account_id NOT IN (SELECT id FROM acc)
          JOIN ledger_accounts ca ON ca.id = ce.account_id
          LEFT JOIN deposits d ON d.id = CASE WHEN t.kind = 'deposit' THEN t.ref_id::uuid END
          LEFT JOIN investments i ON i.id = CASE WHEN t.kind = 'investment' THEN t.ref_id::uuid END
          LEFT JOIN cycle_earnings c ON c.id = CASE WHEN t.kind = 'cycle_earning' THEN t.ref_id::uuid END
          LEFT JOIN investments ci ON ci.id = c.investment_id
          LEFT JOIN referral_rewards r ON r.id = CASE WHEN t.kind = 'referral_reward' THEN t.ref_id::uuid END
          LEFT JOIN users ru ON ru.id = r.from_user_id
          LEFT JOIN withdrawals w ON w.id = CASE WHEN t.kind = 'withdrawal_payout' THEN t.ref_id::uuid END
          LEFT JOIN investments wi ON wi.id = w.investment_id
          LEFT JOIN balance_adjustments ba ON ba.id = CASE WHEN t.kind = 'admin_adjustment' THEN t.ref_id::uuid END
          WHERE t.created_at >= (SELECT lo FROM bounds) AND t.delta <> 0
        ) l ON true
        ORDER BY l.created_at, l.tx_id, l.fee_last, l.entry_id`,
  );
  const first = rows[0];
  return {
    opening: first?.opening ?? 0n,
    closing: first?.closing ?? 0n,
    rows: rows.filter((r): r is typeof r & StatementRow => r.tx_id !== null),
  };
}

/** The owner of a statement (the administrator names a user by id): null when there is no such user. */
export async function statementOwner(db: Db, userId: string): Promise<StatementOwner | null> {
  const [row] = await rawRows<{ id: string; first_name: string; last_name: string; email: string; locale: string }>(
    db,
    sql`SELECT id::text AS id, first_name, last_name, email, locale FROM users WHERE id = ${userId}::uuid`,
  );
  return row
    ? { id: row.id, firstName: row.first_name, lastName: row.last_name, email: row.email, locale: row.locale }
    : null;
}
