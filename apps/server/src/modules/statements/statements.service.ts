import { shownAddress } from '@harvest/shared/address';
import { microToUsdc } from '@harvest/shared/money';
import { monthOf, type Statement } from '@harvest/shared/schemas/statements';
import { describeMovement, statementTexts, type MovementDetail } from '@harvest/shared/statement-texts';
import { translator } from '../../lib/i18n.ts';
import type { AppContext } from '../../context.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { notFound } from '../../lib/errors.ts';
import { platformDay } from '../../lib/time.ts';
import { writeAudit } from '../audit/audit.queries.ts';
import * as q from './statements.queries.ts';

/** One line of a statement: what moved, when, and the balance after it (micro-USDC). */
export interface StatementLine {
  at: Date;
  /** Booking time in the platform time zone ("2026-11-03 14:05"). */
  localAt: string;
  detail: MovementDetail;
  reference: string;
  amount: bigint;
  balance: bigint;
}

/** A statement before it is written in a format and a language. */
export interface StatementData {
  from: string;
  to: string;
  timeZone: string;
  generatedAt: Date;
  investor: { name: string; email: string };
  /** The investor's language: the statement is written in it (docs/decisions/0075). */
  locale: string;
  opening: bigint;
  moneyIn: bigint;
  moneyOut: bigint;
  closing: bigint;
  lines: StatementLine[];
}

const SOURCES = ['earning', 'rewards', 'balance'] as const;
const sourceOf = (s: string | null) => SOURCES.find((x) => x === s) ?? 'balance';

function detailOf(r: q.StatementRow): MovementDetail {
  switch (r.kind) {
    case 'deposit':
      return { kind: 'deposit' };
    case 'admin_adjustment':
      return { kind: 'adjustment', approvedByTwo: r.two_person === true };
    case 'investment':
      return { kind: 'investment', tier: r.tier_name ?? '' };
    case 'cycle_earning':
      return { kind: 'cycle_earning', tier: r.tier_name ?? '', cycle: r.cycle_number ?? 0 };
    case 'referral_reward':
      return { kind: 'referral_reward', level: r.reward_level ?? 0, from: r.reward_from ?? '' };
    case 'withdrawal_payout':
      // A payout's counter-entries: the net amount sent (platform_payouts) and the fee kept (platform_fees).
      return r.counter_kind === 'platform_fees'
        ? { kind: 'withdrawal_fee', cycle: r.w_cycle_number, tier: r.w_tier_name }
        : {
            kind: 'withdrawal',
            source: sourceOf(r.w_source),
            wallet: shownAddress(r.w_wallet ?? ''),
            cycle: r.w_cycle_number,
            tier: r.w_tier_name,
          };
    default:
      return { kind: 'other' };
  }
}

const referenceOf = (r: q.StatementRow) =>
  (r.kind === 'deposit' ? r.deposit_tx_hash : r.kind === 'withdrawal_payout' ? r.w_tx_hash : null) ?? r.ref_id;

/**
 * The statement of `owner` for the platform days from..to (validated by the route: from <= to, at most
 * STATEMENT_MAX_DAYS), or for the current month of the platform's calendar when neither is given. Built from the ledger: the lines are the counter-entries of every transaction that changed
 * the covered accounts' total, so opening + lines = closing holds by double entry; it is checked against the
 * ledger's own sum all the same, and a difference is an error rather than a wrong statement.
 */
export async function statementOf(
  ctx: AppContext,
  owner: q.StatementOwner,
  asked: { from?: string; to?: string },
): Promise<StatementData> {
  const timeZone = ctx.config.PLATFORM_TIMEZONE;
  const period =
    asked.from && asked.to ? { from: asked.from, to: asked.to } : monthOf(platformDay(ctx.clock.now(), timeZone));
  const figures = await q.statementFigures(ctx.db, owner.id, { ...period, timeZone });
  let balance = figures.opening;
  let moneyIn = 0n;
  let moneyOut = 0n;
  const lines = figures.rows.map((r): StatementLine => {
    const amount = -r.counter_amount;
    balance += amount;
    if (amount > 0n) moneyIn += amount;
    else moneyOut -= amount;
    return {
      at: r.created_at,
      localAt: r.local_at,
      detail: detailOf(r),
      reference: referenceOf(r),
      amount,
      balance,
    };
  });
  if (balance !== figures.closing)
    throw new Error(
      `statement of ${owner.id} does not add up: ${figures.opening} + lines = ${balance}, ledger ${figures.closing}`,
    );
  return {
    ...period,
    timeZone,
    generatedAt: ctx.clock.now(),
    investor: { name: `${owner.firstName} ${owner.lastName}`.trim(), email: owner.email },
    locale: owner.locale,
    opening: figures.opening,
    moneyIn,
    moneyOut,
    closing: figures.closing,
    lines,
  };
}

/**
 * Any user's statement for an administrator: a read of one person's money, so it leaves a trace like the CSV
 * exports (who, whose, which period and format, how many lines), written before the answer is sent.
 */
export async function userStatement(
  ctx: AppContext,
  admin: AuthUser,
  userId: string,
  query: { from?: string; to?: string; format: string },
  ip: string,
): Promise<StatementData> {
  const owner = await q.statementOwner(ctx.db, userId);
  if (!owner) throw notFound();
  const data = await statementOf(ctx, owner, query);
  await writeAudit(ctx.db, {
    adminId: admin.id,
    action: 'statement_download',
    targetType: 'user',
    targetId: userId,
    after: { from: data.from, to: data.to, format: query.format, movements: data.lines.length },
    at: ctx.clock.now(),
    ip,
  });
  return data;
}

/** The on-screen (JSON) form. */
export function statementJson(s: StatementData): Statement {
  const t = statementTexts(translator(s.locale));
  return {
    from: s.from,
    to: s.to,
    timeZone: s.timeZone,
    generatedAt: s.generatedAt.toISOString(),
    investor: s.investor,
    openingBalance: microToUsdc(s.opening),
    moneyIn: microToUsdc(s.moneyIn),
    moneyOut: microToUsdc(s.moneyOut),
    closingBalance: microToUsdc(s.closing),
    movements: s.lines.map((l) => ({
      at: l.at.toISOString(),
      kind: l.detail.kind,
      description: describeMovement(t, l.detail),
      reference: l.reference,
      amount: microToUsdc(l.amount),
      balance: microToUsdc(l.balance),
    })),
  };
}
