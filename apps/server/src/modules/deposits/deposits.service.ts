import { MSG } from '@harvest/shared/messages';
import type { Deposit } from '@harvest/shared/schemas/deposits';
import type { AppContext } from '../../context.ts';
import { inTransaction, type OnceKey } from '../../db/tx.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { perInvestorAddresses } from '../deposit-addresses/deposit-addresses.service.ts';
import { depositDto as dto } from './deposits.dto.ts';
import * as q from './deposits.queries.ts';
import type { DepositRow } from './deposits.queries.ts';
import { isHashTaken, isUuid } from './deposits.queries.ts';
import { verifyDeposit, verifyOwnTransfer } from './deposits.verify.ts';
import { adoptTransfer, findByLog, recordTransfers } from './watcher.queries.ts';

/** The investor's deposit calls: claim a transfer, see the history, correct or dismiss a failed deposit. */

/** deposit-history returns at most this many, newest first. */
export const HISTORY_LIMIT = 200;

function resultMessage(d: DepositRow, submitted: string): string {
  if (d.status === 'confirmed') return MSG.depositConfirmed;
  if (d.status === 'failed') return d.failureReason ?? MSG.depositFailedNoReason;
  return submitted;
}

export async function submitDeposit(
  ctx: AppContext,
  user: AuthUser,
  input: { txHash: string; amount: bigint; fromAddress: string },
  key?: OnceKey | null,
): Promise<{ message: string; deposit: Deposit }> {
  if (ctx.chain && perInvestorAddresses(ctx)) return claimOwnTransfer(ctx, user, input, key);
  const real = ctx.chain !== null;
  let row: DepositRow;
  try {
    // The unique index decides who claims a hash: no look-up before insert. In a transaction so
    // that a request's Idempotency-Key commits with the row (a retry after a crash replays).
    row = await inTransaction(
      ctx.db,
      (tx) =>
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
      key,
    );
  } catch (err) {
    if (isHashTaken(err)) throw conflict(MSG.depositHashTaken);
    throw err;
  }
  if (real) row = await verifyDeposit(ctx, row);
  return { message: resultMessage(row, MSG.depositSubmitted), deposit: dto(ctx, row) };
}

/**
 * "My deposit has not shown up yet" (DEPOSIT_XPUB mode): recorded exactly as the watcher records it (one
 * deposit per transfer log, whoever finds it first), and credited by the watcher once it is deep enough.
 */
async function claimOwnTransfer(
  ctx: AppContext,
  user: AuthUser,
  input: { txHash: string; amount: bigint; fromAddress: string },
  key?: OnceKey | null,
): Promise<{ message: string; deposit: Deposit }> {
  const found = await verifyOwnTransfer(ctx, user, input);
  await inTransaction(ctx.db, (tx) => recordTransfers(tx, [found]), key);
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
  key?: OnceKey | null,
): Promise<{ message: string; deposit: Deposit }> {
  if (!isUuid(input.depositId)) throw notFound(MSG.notFound);
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
      row = await inTransaction(
        ctx.db,
        (tx) => adoptTransfer(tx, existing.id, user.id, { ...found, now: ctx.clock.now() }),
        key,
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
  // The resubmission above is no transaction of its own: the key commits with the chain's answer.
  if (ctx.chain && !perInvestorAddresses(ctx)) row = await verifyDeposit(ctx, row, key);
  return { message: resultMessage(row, MSG.depositResubmitted), deposit: dto(ctx, row) };
}

/** The owner takes a failed deposit off the failed-deposits list; it stays in the deposit history. */
export async function dismissFailedDeposit(
  ctx: AppContext,
  user: AuthUser,
  depositId: string,
  key?: OnceKey | null,
): Promise<{ message: string; deposit: Deposit }> {
  if (!isUuid(depositId)) throw notFound(MSG.notFound);
  const row = await inTransaction(ctx.db, (tx) => q.dismissIfFailed(tx, depositId, user.id, ctx.clock.now()), key);
  if (!row) {
    const existing = await q.findDeposit(ctx.db, depositId);
    if (!existing || existing.userId !== user.id) throw notFound(MSG.notFound);
    throw conflict(MSG.depositNotDismissable);
  }
  return { message: MSG.depositDismissed, deposit: dto(ctx, row) };
}
