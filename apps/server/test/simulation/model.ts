import { REFERRAL_RATES_PERCENT } from '@harvest/shared/constants';
import { percentOf } from '@harvest/shared/money';
import { sql } from 'drizzle-orm';
import type { Db } from '../../src/db/client.ts';
import { rawRows } from '../../src/db/raw.ts';

/**
 * Shared by the simulation and the crash test: a seeded PRNG and an independent model of
 * every user's five ledger accounts, kept from acknowledged responses only and compared with
 * the ledger (integer micro-USDC, no floating point).
 */

/** mulberry32: small, fast, and the same sequence for the same seed on every machine. */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    const x = xs[Math.floor(this.next() * xs.length)];
    if (x === undefined) throw new Error('pick from an empty list');
    return x;
  }
  hex(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += '0123456789abcdef'[Math.floor(this.next() * 16)];
    return s;
  }
  /** A weighted choice: [[weight, value], ...]. */
  weighted<T>(xs: readonly (readonly [number, T])[]): T {
    const total = xs.reduce((s, [w]) => s + w, 0);
    let r = this.next() * total;
    for (const [w, v] of xs) {
      if ((r -= w) < 0) return v;
    }
    const last = xs[xs.length - 1];
    if (!last) throw new Error('weighted pick from an empty list');
    return last[1];
  }
}

export const seedFromEnv = (name = 'SIM_SEED'): number => {
  const v = process.env[name];
  return v && /^\d+$/.test(v) ? Number(v) % 2 ** 32 : Math.floor(Math.random() * 2 ** 31);
};

export const ACCOUNT_KINDS = ['balance', 'rewards', 'earnings', 'invested', 'pending_withdrawal'] as const;
export type Kind = (typeof ACCOUNT_KINDS)[number];
export type Accounts = Record<Kind, bigint>;
export const emptyAccounts = (): Accounts => ({
  balance: 0n,
  rewards: 0n,
  earnings: 0n,
  invested: 0n,
  pending_withdrawal: 0n,
});

export interface ModelUser {
  id: string;
  /** Level-1 referrer (an investor of the model) or null. */
  referrerId: string | null;
  acc: Accounts;
}

/** Expected accounts of every modelled user, changed only by acknowledged operations. */
export class MoneyModel {
  readonly users = new Map<string, ModelUser>();

  add(id: string, referrerId: string | null): ModelUser {
    const u = { id, referrerId, acc: emptyAccounts() };
    this.users.set(id, u);
    return u;
  }
  get(id: string): ModelUser {
    const u = this.users.get(id);
    if (!u) throw new Error(`unknown model user ${id}`);
    return u;
  }
  /** Up to three referrers, level 1 first. */
  chain(id: string): string[] {
    const out: string[] = [];
    let cur = this.get(id).referrerId;
    while (cur && out.length < 3) {
      out.push(cur);
      cur = this.get(cur).referrerId;
    }
    return out;
  }
  available(id: string): bigint {
    const a = this.get(id).acc;
    return a.balance + a.rewards + a.earnings;
  }

  credit(id: string, amount: bigint): void {
    this.get(id).acc.balance += amount;
  }
  setBalance(id: string, amount: bigint): void {
    this.get(id).acc.balance = amount;
  }
  invest(id: string, amount: bigint): void {
    const a = this.get(id).acc;
    a.balance -= amount;
    a.invested += amount;
    this.chain(id).forEach((r, i) => {
      const rate = REFERRAL_RATES_PERCENT[i];
      if (rate !== undefined) this.get(r).acc.rewards += percentOf(amount, rate);
    });
  }
  earn(id: string, gross: bigint): void {
    this.get(id).acc.earnings += gross;
  }
  /** Withdraw All: everything available moves to pending_withdrawal; returns the amount moved. */
  withdrawAll(id: string): bigint {
    const a = this.get(id).acc;
    const moved = a.balance + a.rewards + a.earnings;
    a.pending_withdrawal += moved;
    a.balance = 0n;
    a.rewards = 0n;
    a.earnings = 0n;
    return moved;
  }
  approveWithdrawal(id: string, amount: bigint): void {
    this.get(id).acc.pending_withdrawal -= amount;
  }
  rejectWithdrawal(id: string, amount: bigint, source: string): void {
    const a = this.get(id).acc;
    a.pending_withdrawal -= amount;
    if (source === 'earning') a.earnings += amount;
    else if (source === 'rewards') a.rewards += amount;
    else a.balance += amount;
  }

  /** Differences between the model and the ledger's user accounts (empty when they agree). */
  async diff(db: Db): Promise<string[]> {
    const rows = await rawRows<{ user_id: string; kind: Kind; balance: bigint }>(
      db,
      sql`SELECT user_id::text AS user_id, kind, balance FROM ledger_accounts WHERE user_id IS NOT NULL`,
    );
    const actual = new Map<string, Accounts>();
    for (const r of rows) {
      const a = actual.get(r.user_id) ?? emptyAccounts();
      a[r.kind] = r.balance;
      actual.set(r.user_id, a);
    }
    const out: string[] = [];
    for (const u of this.users.values()) {
      const a = actual.get(u.id) ?? emptyAccounts();
      for (const k of ACCOUNT_KINDS) if (a[k] !== u.acc[k]) out.push(`${u.id} ${k}: model=${u.acc[k]} ledger=${a[k]}`);
    }
    return out;
  }

  totals(): Accounts {
    const t = emptyAccounts();
    for (const u of this.users.values()) for (const k of ACCOUNT_KINDS) t[k] += u.acc[k];
    return t;
  }
}

/** Platform totals from the ledger: every account's entries, which must sum to zero. */
export async function ledgerTotals(
  db: Db,
): Promise<{ users: bigint; platform: bigint; byPlatform: Record<string, bigint> }> {
  const rows = await rawRows<{ kind: string; is_user: boolean; total: bigint }>(
    db,
    sql`SELECT a.kind, a.user_id IS NOT NULL AS is_user, COALESCE(SUM(e.amount), 0)::bigint AS total
        FROM ledger_accounts a LEFT JOIN ledger_entries e ON e.account_id = a.id GROUP BY a.kind, a.user_id IS NOT NULL`,
  );
  let users = 0n;
  let platform = 0n;
  const byPlatform: Record<string, bigint> = {};
  for (const r of rows) {
    const v = r.total;
    if (r.is_user) users += v;
    else {
      platform += v;
      byPlatform[r.kind] = v;
    }
  }
  return { users, platform, byPlatform };
}

/** Direct checks beyond checkLedger: nothing half-done, no key left running. */
export async function halfDone(db: Db, opts: { runningOlderThan?: Date } = {}): Promise<string[]> {
  const out: string[] = [];
  const q = async (label: string, query: ReturnType<typeof sql>) => {
    const rows = await rawRows<{ detail: string }>(db, query);
    for (const r of rows.slice(0, 10)) out.push(`${label}: ${r.detail}`);
  };
  await q(
    'pending withdrawal without exactly one hold',
    sql`SELECT w.id::text AS detail FROM withdrawals w LEFT JOIN ledger_transactions t
          ON (t.kind = 'withdrawal_hold' AND t.ref_id = w.id::text) OR (t.kind = 'withdrawal_request_hold' AND t.ref_id = w.request_id::text)
        WHERE w.status = 'pending' GROUP BY w.id HAVING COUNT(t.id) <> 1`,
  );
  await q(
    'confirmed deposit without exactly one ledger transaction',
    sql`SELECT d.id::text AS detail FROM deposits d LEFT JOIN ledger_transactions t ON t.ref_id = d.id::text AND t.kind IN ('deposit', 'admin_adjustment')
        WHERE d.status = 'confirmed' GROUP BY d.id HAVING COUNT(t.id) <> 1`,
  );
  await q(
    'pending deposit with money',
    sql`SELECT d.id::text AS detail FROM deposits d JOIN ledger_transactions t ON t.ref_id = d.id::text WHERE d.status <> 'confirmed'`,
  );
  await q(
    'withdrawal request without its earnings marked requested',
    sql`SELECT w.id::text AS detail FROM withdrawals w JOIN cycle_earnings c ON c.id = w.cycle_earning_id
        WHERE w.status <> 'rejected' AND NOT c.withdrawal_requested`,
  );
  await q(
    'requested earning without a live withdrawal',
    sql`SELECT c.id::text AS detail FROM cycle_earnings c WHERE c.withdrawal_requested
        AND NOT EXISTS (SELECT 1 FROM withdrawals w WHERE w.cycle_earning_id = c.id AND w.status <> 'rejected')`,
  );
  await q(
    'approved withdrawal without tx hash or processedAt',
    sql`SELECT w.id::text AS detail FROM withdrawals w WHERE w.status = 'approved' AND (w.tx_hash IS NULL OR w.processed_at IS NULL)`,
  );
  await q(
    'investment whose earned total differs from its cycle earnings',
    sql`SELECT i.id::text AS detail FROM investments i LEFT JOIN cycle_earnings c ON c.investment_id = i.id
        GROUP BY i.id HAVING i.total_earned <> COALESCE(SUM(c.gross_amount), 0)`,
  );
  if (opts.runningOlderThan) {
    await q(
      'idempotency key stuck running',
      sql`SELECT user_id::text || ' ' || key AS detail FROM idempotency_keys WHERE status = 'running' AND created_at < ${opts.runningOlderThan.toISOString()}::timestamptz`,
    );
  }
  return out;
}
