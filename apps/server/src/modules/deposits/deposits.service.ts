import { randomUUID } from 'node:crypto';
import { MSG } from '@harvest/shared/messages';
import { microToUsdc } from '@harvest/shared/money';
import {
  DEPOSIT_FAILURE_KINDS,
  type AdminDeposit,
  type AdminDepositFilter,
  type Deposit,
  type DepositCounts,
  type DepositFailureKind,
} from '@harvest/shared/schemas/deposits';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import type { PageRequest } from '../../db/keyset.ts';
import { constraintName, inTransaction, sqlState } from '../../db/tx.ts';
import { lockUserAccounts, post } from '../../ledger/ledger.ts';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.ts';
import { ensureDepositAddress, perInvestorAddresses } from '../deposit-addresses/deposit-addresses.service.ts';
import { depositWatcher } from './deposit-watcher.ts';
import { adoptTransfer, findByLog, recordTransfers, type WatchedInsert } from './watcher.queries.ts';
import type { TransferLog } from '../../chain/chain.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { toUserRef } from '../users/users.dto.ts';
import { writeAudit } from '../audit/audit.queries.ts';
import { queueMail } from '../../mail/outbox.ts';
import { checkDeposit, type ChainCheck } from './deposit-check.ts';
import * as q from './deposits.queries.ts';
import type { DepositRow, DepositUser } from './deposits.queries.ts';

/** A transaction not visible on chain is retried this often before it is failed as not found. */
export const NOT_FOUND_ATTEMPTS = 10;
/** Wait between two not-found checks (so the grace period is about 10 minutes). */
export const NOT_FOUND_RETRY_MS = 60_000;
/** How long one instance holds a claimed deposit while it asks the chain. */
export const CHECK_LEASE_MS = 2 * 60_000;
/** Deposits claimed per background pass. */
export const CHECK_BATCH = 50;
/** deposit-history returns at most this many, newest first. */
export const HISTORY_LIMIT = 200;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const LIVE_HASH_CONSTRAINTS = new Set(['deposits_live_tx_hash_key', 'deposits_tx_log_key']);
const isHashTaken = (err: unknown) => sqlState(err) === '23505' && LIVE_HASH_CONSTRAINTS.has(constraintName(err) ?? '');

// ---------------------------------------------------------------- DTOs

const isFailureKind = (v: string | null): v is DepositFailureKind => DEPOSIT_FAILURE_KINDS.some((k) => k === v);

export function toDepositDto(d: DepositRow, requiredConfirmations: number): Deposit {
  return {
    _id: d.id,
    amount: microToUsdc(d.amount),
    status: d.status === 'confirmed' || d.status === 'failed' ? d.status : 'pending',
    type: d.type === 'real' || d.type === 'admin_credit' ? d.type : 'demo',
    txHash: d.txHash,
    fromAddress: d.fromAddress,
    createdAt: d.createdAt.toISOString(),
    processedAt: d.processedAt ? d.processedAt.toISOString() : null,
    confirmations: d.confirmations,
    requiredConfirmations: d.type === 'real' ? requiredConfirmations : 0,
    failureReason: d.failureReason,
    failureKind: isFailureKind(d.failureKind) ? d.failureKind : null,
    // A transfer the chain watcher read is the chain's fact: shown with why it failed, never edited.
    correctable: d.status === 'failed' && d.toAddress === null,
    userId: d.userId,
  };
}

function toAdminDto(d: DepositRow, u: DepositUser, required: number): AdminDeposit {
  return { ...toDepositDto(d, required), note: d.note, userId: toUserRef(u) };
}

const dto = (ctx: AppContext, d: DepositRow) => toDepositDto(d, ctx.config.DEPOSIT_CONFIRMATIONS);

// ---------------------------------------------------------------- crediting

/**
 * Confirms a pending deposit and credits it, in the caller's transaction, and queues the owner's
 * receipt there; null if it was not pending.
 */
async function confirmAndCredit(
  ctx: AppContext,
  tx: Tx,
  id: string,
  values: { processedAt: Date; processedBy?: string | null; logIndex?: number | null; confirmations?: number },
): Promise<DepositRow | null> {
  const row = await q.confirmIfPending(tx, id, values);
  if (!row) return null;
  await post(tx, {
    kind: 'deposit',
    refId: row.id,
    memo: row.txHash ? `deposit ${row.txHash}` : 'deposit',
    createdBy: values.processedBy ?? null,
    createdAt: values.processedAt,
    legs: [
      { account: { userId: row.userId, kind: 'balance' }, amount: row.amount },
      { account: { platform: 'platform_deposits' }, amount: -row.amount },
    ],
  });
  // Queued after the posting: the receipt quotes the balance this deposit made.
  await queueMail(tx, ctx, row.userId, {
    kind: 'deposit_confirmed',
    amount: row.amount,
    txHash: row.txHash,
    at: values.processedAt,
  });
  return row;
}

/** Fails a pending deposit with the reason its owner reads, and queues the owner's e-mail; null if not pending. */
async function failPending(
  ctx: AppContext,
  tx: Tx,
  id: string,
  values: { reason: string; kind: DepositFailureKind; processedAt: Date; processedBy?: string | null },
): Promise<DepositRow | null> {
  const row = await q.failIfPending(tx, id, {
    failureReason: values.reason,
    failureKind: values.kind,
    processedAt: values.processedAt,
    processedBy: values.processedBy ?? null,
  });
  if (!row) return null;
  await queueMail(tx, ctx, row.userId, {
    kind: 'deposit_failed',
    amount: row.amount,
    txHash: row.txHash,
    reason: values.reason,
    at: values.processedAt,
  });
  return row;
}

// ---------------------------------------------------------------- chain verification

/**
 * Applies one chain answer to a deposit, under its row lock and only while it is still the
 * pending deposit that was checked (an admin may have approved it, or it may have changed).
 * Checked against the investor's own address (DEPOSIT_XPUB), a match takes the transfer's facts
 * from the chain and is credited by the chain watcher like any transfer it reads.
 */
async function applyCheck(
  ctx: AppContext,
  checked: DepositRow,
  result: ChainCheck,
  own: string | null,
): Promise<DepositRow> {
  const now = ctx.clock.now();
  const required = ctx.config.DEPOSIT_CONFIRMATIONS;
  try {
    return await inTransaction(ctx.db, async (tx) => {
      const d = await q.lockDeposit(tx, checked.id);
      if (!d) throw notFound();
      const unchanged =
        d.status === 'pending' &&
        d.txHash === checked.txHash &&
        d.amount === checked.amount &&
        d.fromAddress === checked.fromAddress;
      if (!unchanged) return d;
      const fail = async (reason: string, kind: DepositFailureKind) =>
        (await failPending(ctx, tx, d.id, { reason, kind, processedAt: now })) ?? d;
      switch (result.kind) {
        case 'rpc_error':
          // Nothing is decided while the node cannot be asked: the next pass retries.
          ctx.log.warn({ depositId: d.id, err: result.message }, 'deposit check: chain RPC unavailable');
          return (await q.updateDeposit(tx, d.id, { nextCheckAt: now })) ?? d;
        case 'not_found': {
          const attempts = d.checkAttempts + 1;
          if (attempts >= NOT_FOUND_ATTEMPTS) return fail(MSG.depositNotFoundOnChain(ctx.config.CHAIN_ID), 'not_found');
          return (
            (await q.updateDeposit(tx, d.id, {
              checkAttempts: attempts,
              nextCheckAt: new Date(now.getTime() + NOT_FOUND_RETRY_MS),
            })) ?? d
          );
        }
        case 'mismatch':
          return fail(result.reason, result.why);
        case 'match': {
          const t = result.transfer;
          if (own)
            return (
              (await q.updateDeposit(tx, d.id, {
                ...chainFacts(t),
                confirmations: result.confirmations,
                checkAttempts: 0,
                nextCheckAt: null,
              })) ?? d
            );
          if (result.confirmations >= required) {
            const credited = await confirmAndCredit(ctx, tx, d.id, {
              processedAt: now,
              logIndex: t.logIndex,
              confirmations: result.confirmations,
            });
            return credited ?? d;
          }
          return (
            (await q.updateDeposit(tx, d.id, {
              logIndex: t.logIndex,
              confirmations: result.confirmations,
              checkAttempts: 0,
              nextCheckAt: now,
            })) ?? d
          );
        }
      }
    });
  } catch (err) {
    // The same transfer log is already held by another deposit: this one can never be credited.
    if (isHashTaken(err)) {
      const failed = await inTransaction(ctx.db, (tx) =>
        failPending(ctx, tx, checked.id, { reason: MSG.depositHashTaken, kind: 'hash_taken', processedAt: now }),
      );
      return failed ?? (await q.findDeposit(ctx.db, checked.id)) ?? checked;
    }
    throw err;
  }
}

/** Every fact of a deposit that only the chain may give: none of them is ever taken from a request. */
function chainFacts(t: TransferLog) {
  return {
    txHash: t.txHash,
    logIndex: t.logIndex,
    fromAddress: t.from,
    toAddress: t.to,
    amount: t.value,
    blockNumber: t.blockNumber,
    blockHash: t.blockHash,
  };
}

/**
 * Asks the chain about one pending claimed deposit and records the answer: checked against the address
 * its investor may be credited for (their own with DEPOSIT_XPUB, the shared one without).
 */
async function verifyDeposit(ctx: AppContext, d: DepositRow): Promise<DepositRow> {
  if (!ctx.chain || d.type !== 'real' || d.status !== 'pending' || !d.txHash || !d.fromAddress) return d;
  const claim = { txHash: d.txHash, fromAddress: d.fromAddress, amount: d.amount };
  const own = perInvestorAddresses(ctx) ? await ensureDepositAddress(ctx, d.userId) : null;
  const to = own ?? ctx.config.DEPOSIT_ADDRESS;
  return applyCheck(ctx, d, await checkDeposit(ctx.chain, claim, to, own ? MSG.depositNotYourAddress : undefined), own);
}

/**
 * The background job's pass (also called directly by tests): claims due pending real deposits
 * with SKIP LOCKED and a lease, so several server instances never check the same one at once.
 */
export async function recheckPendingDeposits(
  ctx: AppContext,
  opts: { batch?: number } = {},
): Promise<{ checked: number; confirmed: number; failed: number }> {
  const out = { checked: 0, confirmed: 0, failed: 0 };
  if (!ctx.chain) return out;
  const now = ctx.clock.now();
  const ids = await inTransaction(ctx.db, (tx) =>
    q.claimDueDeposits(tx, now, new Date(now.getTime() + CHECK_LEASE_MS), opts.batch ?? CHECK_BATCH),
  );
  for (const id of ids) {
    const d = await q.findDeposit(ctx.db, id);
    if (!d) continue;
    const after = await verifyDeposit(ctx, d);
    out.checked++;
    if (after.status === 'confirmed') out.confirmed++;
    if (after.status === 'failed') out.failed++;
  }
  return out;
}

// ---------------------------------------------------------------- investor calls

function resultMessage(d: DepositRow, submitted: string): string {
  if (d.status === 'confirmed') return MSG.depositConfirmed;
  if (d.status === 'failed') return d.failureReason ?? MSG.depositFailedNoReason;
  return submitted;
}

export async function submitDeposit(
  ctx: AppContext,
  user: AuthUser,
  input: { txHash: string; amount: bigint; fromAddress: string },
): Promise<{ message: string; deposit: Deposit }> {
  if (ctx.chain && perInvestorAddresses(ctx)) return claimOwnTransfer(ctx, user, input);
  const real = ctx.chain !== null;
  let row: DepositRow;
  try {
    // The unique index decides who claims a hash: no look-up before insert. In a transaction so
    // that a request's Idempotency-Key commits with the row (a retry after a crash replays).
    row = await inTransaction(ctx.db, (tx) =>
      q.insertDeposit(tx, {
        userId: user.id,
        amount: input.amount,
        type: real ? 'real' : 'demo',
        status: 'pending',
        txHash: input.txHash,
        fromAddress: input.fromAddress,
        nextCheckAt: ctx.clock.now(),
        createdAt: ctx.clock.now(),
      }),
    );
  } catch (err) {
    if (isHashTaken(err)) throw conflict(MSG.depositHashTaken);
    throw err;
  }
  if (real) row = await verifyDeposit(ctx, row);
  return { message: resultMessage(row, MSG.depositSubmitted), deposit: dto(ctx, row) };
}

/**
 * A claim checked against the caller's own deposit address (DEPOSIT_XPUB): the deposit the chain watcher
 * would record for that transfer, every fact from the chain's receipt. Anything else is refused with its
 * reason, and nothing changes.
 */
async function verifyOwnTransfer(
  ctx: AppContext,
  user: AuthUser,
  claim: { txHash: string; amount: bigint; fromAddress: string },
): Promise<WatchedInsert> {
  const chain = ctx.chain;
  const own = await ensureDepositAddress(ctx, user.id);
  if (!chain || !own) throw new Error('verifyOwnTransfer needs a chain and DEPOSIT_XPUB');
  const check = await checkDeposit(chain, claim, own, MSG.depositNotYourAddress);
  if (check.kind === 'rpc_error') throw new AppError('upstream_error', MSG.depositChainUnavailable);
  if (check.kind === 'not_found') throw conflict(MSG.depositNotOnChainYet(ctx.config.CHAIN_ID));
  if (check.kind === 'mismatch') throw badRequest(check.reason, 'chain_mismatch');
  const head = check.transfer.blockNumber + BigInt(check.confirmations) - 1n;
  const [row] = await depositWatcher(ctx).depositsIn([check.transfer], head);
  // Before the block from which the address counts: it was not handed out yet.
  if (!row) throw badRequest(MSG.depositNotYourAddress([own], own), 'chain_mismatch');
  return row;
}

/**
 * "My deposit has not shown up yet" (DEPOSIT_XPUB mode): recorded exactly as the watcher records it (one
 * deposit per transfer log, whoever finds it first), and credited by the watcher once it is deep enough.
 */
async function claimOwnTransfer(
  ctx: AppContext,
  user: AuthUser,
  input: { txHash: string; amount: bigint; fromAddress: string },
): Promise<{ message: string; deposit: Deposit }> {
  const found = await verifyOwnTransfer(ctx, user, input);
  await inTransaction(ctx.db, (tx) => recordTransfers(tx, [found]));
  const row = await findByLog(ctx.db, found.txHash, found.logIndex);
  if (!row) throw new Error('claimed deposit not recorded');
  return { message: resultMessage(row, MSG.depositSubmitted), deposit: dto(ctx, row) };
}

export async function depositHistory(ctx: AppContext, user: AuthUser): Promise<Deposit[]> {
  const rows = await q.listUserDeposits(ctx.db, user.id, { limit: HISTORY_LIMIT });
  return rows.map((d) => dto(ctx, d));
}

export async function failedDeposits(ctx: AppContext, user: AuthUser): Promise<Deposit[]> {
  const rows = await q.listUserDeposits(ctx.db, user.id, { status: 'failed', limit: HISTORY_LIMIT });
  return rows.map((d) => dto(ctx, d));
}

/**
 * The owner corrects a failed deposit they claimed: back to pending and verified again against the address
 * they may be credited for. With DEPOSIT_XPUB the correction is checked first and the deposit takes the
 * transfer's facts from the chain; without it the new hash, amount and sender are a claim the chain is asked
 * about. A transfer the chain watcher recorded is not correctable: its facts are the chain's.
 */
export async function updateFailedDeposit(
  ctx: AppContext,
  user: AuthUser,
  input: { depositId: string; txHash: string; amount: bigint; fromAddress: string | null },
): Promise<{ message: string; deposit: Deposit }> {
  if (!UUID.test(input.depositId)) throw notFound(MSG.notFound);
  const existing = await q.findDeposit(ctx.db, input.depositId);
  if (!existing || existing.userId !== user.id) throw notFound(MSG.notFound);
  if (existing.status !== 'failed') throw conflict(MSG.depositNotFailed);
  if (existing.toAddress !== null) throw conflict(MSG.depositNotCorrectable(existing.failureReason));
  let row: DepositRow | undefined;
  try {
    if (ctx.chain && perInvestorAddresses(ctx)) {
      const claim = {
        txHash: input.txHash,
        amount: input.amount,
        fromAddress: input.fromAddress ?? existing.fromAddress ?? '',
      };
      const found = await verifyOwnTransfer(ctx, user, claim);
      row = await inTransaction(ctx.db, (tx) =>
        adoptTransfer(tx, existing.id, user.id, { ...found, now: ctx.clock.now() }),
      );
    } else {
      row = await q.resubmitIfFailed(ctx.db, input.depositId, user.id, {
        txHash: input.txHash,
        amount: input.amount,
        fromAddress: input.fromAddress,
        type: ctx.chain ? 'real' : 'demo',
        now: ctx.clock.now(),
      });
    }
  } catch (err) {
    if (isHashTaken(err)) throw conflict(MSG.depositHashTaken);
    throw err;
  }
  // Changed in between (corrected or dismissed by a parallel request).
  if (!row) throw conflict(MSG.depositNotFailed);
  if (ctx.chain && !perInvestorAddresses(ctx)) row = await verifyDeposit(ctx, row);
  return { message: resultMessage(row, MSG.depositResubmitted), deposit: dto(ctx, row) };
}

/** The owner takes a failed deposit off the failed-deposits list; it stays in the deposit history. */
export async function dismissFailedDeposit(
  ctx: AppContext,
  user: AuthUser,
  depositId: string,
): Promise<{ message: string; deposit: Deposit }> {
  if (!UUID.test(depositId)) throw notFound(MSG.notFound);
  const row = await inTransaction(ctx.db, (tx) => q.dismissIfFailed(tx, depositId, user.id, ctx.clock.now()));
  if (!row) {
    const existing = await q.findDeposit(ctx.db, depositId);
    if (!existing || existing.userId !== user.id) throw notFound(MSG.notFound);
    throw conflict(MSG.depositNotDismissable);
  }
  return { message: MSG.depositDismissed, deposit: dto(ctx, row) };
}

// ---------------------------------------------------------------- admin calls

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
): Promise<{ message: string; deposit: Deposit }> {
  if (!UUID.test(depositId)) throw notFound(MSG.notFound);
  const now = ctx.clock.now();
  const row = await inTransaction(ctx.db, async (tx) => {
    const credited = await confirmAndCredit(ctx, tx, depositId, { processedAt: now, processedBy: admin.id });
    if (!credited) {
      const existing = await q.findDeposit(tx, depositId);
      if (!existing) throw notFound(MSG.notFound);
      throw conflict(existing.status === 'confirmed' ? MSG.depositAlreadyProcessed : MSG.depositNotPending);
    }
    await writeAudit(tx, {
      adminId: admin.id,
      action: 'deposit_approve',
      targetType: 'deposit',
      targetId: credited.id,
      before: { status: 'pending' },
      after: { status: 'confirmed', amount: credited.amount.toString(), userId: credited.userId },
      ip,
    });
    return credited;
  });
  return { message: MSG.depositApproved, deposit: dto(ctx, row) };
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
): Promise<{ message: string; deposit: Deposit }> {
  if (!UUID.test(input.depositId)) throw notFound(MSG.notFound);
  const now = ctx.clock.now();
  const row = await inTransaction(ctx.db, async (tx) => {
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
    await writeAudit(tx, {
      adminId: admin.id,
      action: 'deposit_reject',
      targetType: 'deposit',
      targetId: failed.id,
      before: { status: 'pending' },
      after: { status: 'failed', amount: failed.amount.toString(), userId: failed.userId },
      note: input.reason,
      ip,
    });
    return failed;
  });
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
  input: { userId: string; newBalance: bigint; note: string; expectedBalance?: bigint },
  ip: string,
): Promise<{ message: string }> {
  if (!UUID.test(input.userId)) throw notFound(MSG.notFound);
  const now = ctx.clock.now();
  await inTransaction(ctx.db, async (tx) => {
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
        createdBy: admin.id,
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
      ip,
    });
  });
  return { message: MSG.balanceUpdated };
}
