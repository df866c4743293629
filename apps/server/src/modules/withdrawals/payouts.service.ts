import { MSG } from '@harvest/shared/messages';
import { microToUsdc } from '@harvest/shared/money';
import type { FoundPayout } from '@harvest/shared/schemas/withdrawals';
import type { AppContext } from '../../context.ts';
import { inTransaction, type OnceKey } from '../../db/tx.ts';
import { AppError, conflict, notFound } from '../../lib/errors.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { writeAudit } from '../audit/audit.queries.ts';
import * as pq from './payouts.queries.ts';
import * as bq from './batches.queries.ts';
import { inPayment, refuseOneSignature } from './batches.service.ts';
import { approvePaidBy } from './withdrawals.service.ts';
import type { WithdrawalRow } from './withdrawals.queries.ts';

/** Payout transfers looked at per watcher pass at most (the next pass continues). */
export const PAYOUT_BATCH = 200;
/** Found payouts waiting for an administrator. */
const OPEN = ['ambiguous', 'unmatched', 'held'];

type Pending = Awaited<ReturnType<typeof pq.pendingToWallet>>[number];

/**
 * The sets of pending withdrawals a transfer of `amount` to their wallet could have paid (decision 0071):
 * one withdrawal for exactly its net amount; a whole request's withdrawals together; a grouped batch's transfer for
 * one request (the request's withdrawals in that batch). Each set once.
 */
export function candidateSets(pending: Pending[], amount: bigint, now: Date): WithdrawalRow[][] {
  const sets = new Map<string, WithdrawalRow[]>();
  const add = (ws: WithdrawalRow[]) => {
    if (ws.length === 0 || ws.reduce((n, w) => n + w.netAmount, 0n) !== amount) return;
    sets.set(
      ws
        .map((w) => w.id)
        .sort()
        .join(','),
      ws,
    );
  };
  for (const p of pending) add([p.w]);
  const groups = new Map<string, WithdrawalRow[]>();
  for (const p of pending) {
    const keys = [`request:${p.w.requestId}`];
    if (p.w.batchId && p.batchGrouped && inPayment(p, now)) keys.push(`batch:${p.w.batchId}:${p.w.requestId}`);
    for (const k of keys) groups.set(k, [...(groups.get(k) ?? []), p.w]);
  }
  for (const ws of groups.values()) add(ws);
  return [...sets.values()];
}

/**
 * The watcher's step after a range is read: each payout transfer not looked at yet completes the withdrawals it
 * paid when exactly one set fits, with every check an administrator's approval makes (`approvePaidBy`). Several
 * sets: nothing is guessed (ambiguous, for an administrator); none: unmatched; a frozen account's: held, with why
 * (the money left, but its withdrawals are not completed by it until an administrator decides). A node that cannot
 * be asked leaves it for the next pass.
 */
export async function settlePayouts(ctx: AppContext, upTo: bigint): Promise<{ matched: number; open: number }> {
  const out = { matched: 0, open: 0 };
  for (const t of await pq.pendingPayoutTransfers(ctx.db, upTo, PAYOUT_BATCH)) {
    // Approved by hand with this hash before the watcher read it, for all it carried: nothing left to match.
    const byHand = await pq.approvedWith(ctx.db, t.txHash, t.toAddress);
    if (byHand.covers) {
      await pq.settlePayoutTransfer(ctx.db, t.id, ['pending'], {
        status: 'matched',
        withdrawalIds: byHand.ids,
        detail: MSG.payoutMatchedByHand,
      });
      out.matched++;
      continue;
    }
    const sets = candidateSets(await pq.pendingToWallet(ctx.db, t.toAddress), t.amount, ctx.clock.now());
    if (sets.length !== 1) {
      const detail = sets.length === 0 ? MSG.payoutNoMatch : MSG.payoutSeveralMatches(sets.length).text;
      await pq.settlePayoutTransfer(ctx.db, t.id, ['pending'], {
        status: sets.length === 0 ? 'unmatched' : 'ambiguous',
        detail,
      });
      out.open++;
      continue;
    }
    const ids = sets[0]!.map((w) => w.id);
    try {
      await approvePaidBy(
        ctx,
        { admin: null, ip: null },
        { withdrawalIds: ids, txHash: t.txHash, notes: null, foundOnChain: true },
        async (tx) => {
          if (
            !(await pq.settlePayoutTransfer(tx, t.id, ['pending'], {
              status: 'matched',
              withdrawalIds: ids,
              resolvedAt: ctx.clock.now(),
            }))
          )
            throw conflict(MSG.payoutAlreadySettled);
        },
      );
      out.matched++;
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      if (err.code === 'upstream_error') return out; // the node: next pass
      const held = err.code === 'withdrawals_frozen';
      await pq.settlePayoutTransfer(ctx.db, t.id, ['pending'], {
        status: held ? 'held' : 'unmatched',
        detail: held ? MSG.payoutHeldFrozen : err.message,
        withdrawalIds: held ? ids : null,
      });
      out.open++;
    }
  }
  return out;
}

/** The payout transfers an administrator has to decide, each with the sets of withdrawals it could pay now. */
export async function foundPayouts(ctx: AppContext): Promise<FoundPayout[]> {
  const rows = await pq.openPayoutTransfers(ctx.db);
  const now = ctx.clock.now();
  return Promise.all(
    rows.map(async (t) => {
      const pending = await pq.pendingToWallet(ctx.db, t.toAddress);
      return {
        _id: t.id,
        txHash: t.txHash,
        logIndex: t.logIndex,
        walletAddress: t.toAddress,
        amount: microToUsdc(t.amount),
        blockNumber: Number(t.blockNumber),
        status: t.status === 'ambiguous' || t.status === 'held' ? t.status : ('unmatched' as const),
        detail: t.detail,
        candidates: candidateSets(pending, t.amount, now).map((ws) => ws.map((w) => w.id)),
        pendingToWallet: pending.map((p) => ({
          _id: p.w.id,
          requestId: p.w.requestId,
          netAmount: microToUsdc(p.w.netAmount),
          source: p.w.source === 'earning' || p.w.source === 'rewards' ? p.w.source : ('balance' as const),
          cycleNumber: p.w.cycleNumber,
          requestedAt: p.w.requestedAt.toISOString(),
        })),
      };
    }),
  );
}

/** An administrator says which pending withdrawals a found payout paid: approved with its hash (every check), audited. */
export async function assignPayout(
  ctx: AppContext,
  admin: AuthUser,
  input: { payoutId: string; withdrawalIds: string[] },
  ip: string,
  key?: OnceKey | null,
): Promise<void> {
  const t = await pq.findPayoutTransfer(ctx.db, input.payoutId);
  if (!t) throw notFound();
  if (!OPEN.includes(t.status)) throw conflict(MSG.payoutAlreadySettled);
  refuseOneSignature(ctx, await bq.payeesOf(ctx.db, input.withdrawalIds));
  await approvePaidBy(
    ctx,
    { admin, ip },
    { withdrawalIds: input.withdrawalIds, txHash: t.txHash, notes: null, foundOnChain: true },
    async (tx) => {
      const settled = await pq.settlePayoutTransfer(tx, t.id, OPEN, {
        status: 'matched',
        withdrawalIds: input.withdrawalIds,
        resolvedAt: ctx.clock.now(),
        resolvedBy: admin.id,
      });
      if (!settled) throw conflict(MSG.payoutAlreadySettled);
    },
    key,
  );
}

/** An administrator says a found payout pays no withdrawal (the operator moved funds): it leaves the list, audited. */
export async function dismissPayout(ctx: AppContext, admin: AuthUser, payoutId: string, ip: string): Promise<void> {
  await inTransaction(ctx.db, async (tx) => {
    const t = await pq.findPayoutTransfer(tx, payoutId);
    if (!t) throw notFound();
    const ok = await pq.settlePayoutTransfer(tx, payoutId, OPEN, {
      status: 'dismissed',
      resolvedAt: ctx.clock.now(),
      resolvedBy: admin.id,
    });
    if (!ok) throw conflict(MSG.payoutAlreadySettled);
    await writeAudit(tx, {
      adminId: admin.id,
      action: 'payout_dismiss',
      targetType: 'payout_transfer',
      targetId: payoutId,
      before: { status: t.status, txHash: t.txHash, to: t.toAddress, amount: t.amount.toString() },
      at: ctx.clock.now(),
      ip,
    });
  });
}
