import { randomUUID } from 'node:crypto';
import { MSG } from '@harvest/shared/messages';
import type { AdminDeposit, AdminDepositFilter, Deposit, DepositCounts } from '@harvest/shared/schemas/deposits';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import type { PageRequest } from '../../db/keyset.ts';
import { inTransaction, type OnceKey } from '../../db/tx.ts';
import { lockUserAccounts, post } from '../../ledger/ledger.ts';
import { AppError, conflict, notFound } from '../../lib/errors.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { writeAudit, writeDecision } from '../audit/audit.queries.ts';
import { confirmAndCredit, failPending } from './deposits.credit.ts';
import { depositDto as dto, toAdminDto } from './deposits.dto.ts';
import * as q from './deposits.queries.ts';
import { isUuid } from './deposits.queries.ts';

/** The back office's deposit calls: the lists, approve and reject, and balance updates. */

/** One page of deposits for the back office (newest first): one status or all, optionally one user's. */
export async function adminDepositPage(
  ctx: AppContext,
  filter: q.DepositFilter,
  opts: PageRequest,
  counts?: DepositCounts,
): Promise<{
  deposits: AdminDeposit[];
  page: number;
  pageSize: number;
  total: number;
  nextCursor: string | null;
  prevCursor: string | null;
}> {
  const total = await q.countDeposits(ctx.db, filter, counts);
  const res = await q.depositsPage(ctx.db, filter, opts, total);
  return {
    deposits: res.rows.map((r) => toAdminDto(r.deposit, r.user, ctx.config.DEPOSIT_CONFIRMATIONS)),
    page: opts.page,
    pageSize: opts.pageSize,
    total,
    nextCursor: res.nextCursor,
    prevCursor: res.prevCursor,
  };
}

/** The newest deposits of the whole platform (the admin overview). */
export async function recentDeposits(ctx: AppContext, limit: number): Promise<AdminDeposit[]> {
  const res = await q.depositsPage(ctx.db, { status: 'all' }, { page: 1, pageSize: limit }, Number.MAX_SAFE_INTEGER);
  return res.rows.map((r) => toAdminDto(r.deposit, r.user, ctx.config.DEPOSIT_CONFIRMATIONS));
}

export async function adminDeposits(
  ctx: AppContext,
  opts: PageRequest & { status: AdminDepositFilter },
): Promise<Awaited<ReturnType<typeof adminDepositPage>> & { counts: DepositCounts }> {
  const counts = await q.depositCounts(ctx.db);
  const page = await adminDepositPage(ctx, { status: opts.status }, opts, counts);
  return { ...page, counts };
}

/** Approves a pending deposit: confirms and credits it exactly once (a second approval is 409). */
export async function approveDeposit(
  ctx: AppContext,
  admin: AuthUser,
  depositId: string,
  ip: string,
  key?: OnceKey | null,
): Promise<{ message: string; deposit: Deposit }> {
  if (!isUuid(depositId)) throw notFound(MSG.notFound);
  const row = await inTransaction(ctx.db, (tx) => applyDepositApproval(ctx, tx, admin, depositId, ip), key);
  return { message: MSG.depositApproved, deposit: dto(ctx, row) };
}

/** The approval of a pending deposit in the caller's transaction (the immediate call's, or a four-eyes approval's). */
export async function applyDepositApproval(ctx: AppContext, tx: Tx, admin: AuthUser, depositId: string, ip: string) {
  const credited = await confirmAndCredit(ctx, tx, depositId, { processedAt: ctx.clock.now(), processedBy: admin.id });
  if (!credited) {
    const existing = await q.findDeposit(tx, depositId);
    if (!existing) throw notFound(MSG.notFound);
    throw conflict(existing.status === 'confirmed' ? MSG.depositAlreadyProcessed : MSG.depositNotPending);
  }
  await writeDecision(tx, {
    adminId: admin.id,
    action: 'deposit_approve',
    targetType: 'deposit',
    targetId: credited.id,
    status: 'confirmed',
    facts: { amount: credited.amount.toString(), userId: credited.userId },
    at: ctx.clock.now(),
    ip,
  });
  return credited;
}

/**
 * Rejects a pending deposit: it becomes `failed` with the administrator's reason, which its owner
 * reads in the failed-deposits area and can correct. Decided once, like an approval: the
 * conditional update lets one of a parallel approve and reject win; the other gets 409.
 */
export async function rejectDeposit(
  ctx: AppContext,
  admin: AuthUser,
  input: { depositId: string; reason: string },
  ip: string,
  key?: OnceKey | null,
): Promise<{ message: string; deposit: Deposit }> {
  if (!isUuid(input.depositId)) throw notFound(MSG.notFound);
  const now = ctx.clock.now();
  const row = await inTransaction(
    ctx.db,
    async (tx) => {
      const failed = await failPending(ctx, tx, input.depositId, {
        reason: input.reason,
        kind: 'rejected',
        processedAt: now,
        processedBy: admin.id,
      });
      if (!failed) {
        const existing = await q.findDeposit(tx, input.depositId);
        if (!existing) throw notFound(MSG.notFound);
        throw conflict(MSG.depositAlreadyProcessed);
      }
      await writeDecision(tx, {
        adminId: admin.id,
        action: 'deposit_reject',
        targetType: 'deposit',
        targetId: failed.id,
        status: 'failed',
        facts: { amount: failed.amount.toString(), userId: failed.userId },
        note: input.reason,
        at: ctx.clock.now(),
        ip,
      });
      return failed;
    },
    key,
  );
  return { message: MSG.depositRejected, deposit: dto(ctx, row) };
}

/**
 * Sets a user's `balance` account to exactly `newBalance` as ONE ledger transaction
 * (kind admin_adjustment, against platform_adjustments) recording the admin and the note, and one
 * balance_adjustments row with the signed change (its id is the ledger transaction's ref_id). An
 * adjustment is not a deposit: a positive one still appears in the user's deposit history as a
 * confirmed admin_credit deposit (same id), but Total Deposits counts demo and on-chain deposits only.
 */
export async function updateUserBalance(
  ctx: AppContext,
  admin: AuthUser,
  input: BalanceUpdate,
  ip: string,
  key?: OnceKey | null,
): Promise<{ message: string }> {
  if (!isUuid(input.userId)) throw notFound(MSG.notFound);
  await inTransaction(ctx.db, (tx) => applyBalanceUpdate(ctx, tx, { admin }, input, ip), key);
  return { message: MSG.balanceUpdated };
}

export interface BalanceUpdate {
  userId: string;
  newBalance: bigint;
  note: string;
  expectedBalance?: bigint | undefined;
}

/** Who decided a balance update: one administrator, or (four-eyes) its proposer and the approver. */
export interface Deciders {
  admin: AuthUser;
  /** Four-eyes: the staff member who proposed it (`admin` approved it). */
  proposerId?: string;
}

/** A balance update in the caller's transaction (the immediate call's, or a four-eyes approval's). */
export async function applyBalanceUpdate(
  ctx: AppContext,
  tx: Tx,
  { admin, proposerId }: Deciders,
  input: BalanceUpdate,
  ip: string,
): Promise<void> {
  const now = ctx.clock.now();
  const balances = await lockUserAccounts(tx, [input.userId]);
  const current = balances.get(`${input.userId}:balance`);
  if (current === undefined) throw notFound(MSG.notFound);
  // Compare-and-set under the account lock: a balance that moved since the administrator read it
  // (a Withdraw All, a deposit) is not overwritten with a figure computed from the old one.
  if (input.expectedBalance !== undefined && input.expectedBalance !== current)
    throw new AppError('balance_changed', MSG.balanceChanged(current));
  const diff = input.newBalance - current;
  let depositId: string | null = null;
  if (diff !== 0n) {
    if (diff > 0n) {
      const dep = await q.insertDeposit(tx, {
        userId: input.userId,
        amount: diff,
        type: 'admin_credit',
        status: 'confirmed',
        note: input.note,
        createdAt: now,
        processedAt: now,
        processedBy: admin.id,
      });
      depositId = dep.id;
    }
    const adjustmentId = depositId ?? randomUUID();
    await q.insertAdjustment(tx, {
      id: adjustmentId,
      userId: input.userId,
      amount: diff,
      note: input.note || null,
      createdBy: proposerId ?? admin.id,
      approvedBy: proposerId ? admin.id : null,
      createdAt: now,
    });
    await post(tx, {
      kind: 'admin_adjustment',
      refId: adjustmentId,
      memo: input.note,
      createdBy: admin.id,
      createdAt: now,
      legs: [
        { account: { userId: input.userId, kind: 'balance' }, amount: diff },
        { account: { platform: 'platform_adjustments' }, amount: -diff },
      ],
    });
  }
  await writeAudit(tx, {
    adminId: admin.id,
    action: 'balance_update',
    targetType: 'user',
    targetId: input.userId,
    before: { balance: current.toString() },
    after: { balance: input.newBalance.toString(), ...(depositId ? { depositId } : {}) },
    note: input.note,
    at: ctx.clock.now(),
    ip,
  });
}
