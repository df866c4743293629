import { MIN_DEPOSIT_MICRO } from '@harvest/shared/constants';
import { MSG } from '@harvest/shared/messages';
import { formatUsdc, microToUsdc } from '@harvest/shared/money';
import type { BlockHeader, ChainRead, TransferLog } from '../../chain/chain.ts';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/tx.ts';
import { ownersOf, type DepositAddressRow } from '../deposit-addresses/deposit-addresses.queries.ts';
import { raiseAlarm, refreshBalancesOf } from '../solvency/solvency.service.ts';
import { confirmAndCreditMany } from './deposits.credit.ts';
import * as dq from './deposits.queries.ts';
import { must, type PassResult } from './watcher-pass.ts';
import * as q from './watcher.queries.ts';

/** Block headers asked for at once when crediting. */
export const HASH_READS_AT_ONCE = 16;
/** Deposits credited per pass at most (the next pass continues). */
export const SETTLE_BATCH = 500;

/** The logs that are deposits: to an investor's address, from the block it was handed out on. */
export async function depositsIn(
  ctx: AppContext,
  logs: TransferLog[],
  head: bigint,
  known?: DepositAddressRow[],
): Promise<q.WatchedInsert[]> {
  const owners = known ?? (await ownersOf(ctx.db, [...new Set(logs.map((l) => l.to))]));
  if (owners.length === 0) return [];
  const byAddress = new Map(owners.map((o) => [o.address, o]));
  const now = ctx.clock.now();
  const start = ctx.config.depositStartBlock ?? 0n;
  return logs.flatMap((l) => {
    const o = byAddress.get(l.to);
    if (!o || l.blockNumber < (o.fromBlock ?? start)) return [];
    const below = l.value < MIN_DEPOSIT_MICRO;
    return [
      {
        userId: o.userId,
        amount: l.value,
        status: below ? 'failed' : 'pending',
        failureReason: below ? MSG.depositBelowMinimum : null,
        txHash: l.txHash,
        logIndex: l.logIndex,
        fromAddress: l.from,
        toAddress: l.to,
        blockNumber: l.blockNumber,
        blockHash: l.blockHash,
        confirmations: head >= l.blockNumber ? Number(head - l.blockNumber + 1n) : 0,
        createdAt: now,
      },
    ];
  });
}

/**
 * Counts confirmations and credits the pending deposits in blocks the cursor has passed (so at least
 * DEPOSIT_CONFIRMATIONS deep) whose block is still the chain's; the others are matched with their transaction
 * again. Below-minimum transfers shown early are checked the same way once (a re-organisation may have dropped
 * them), and never credited. The credited addresses' on-chain balances are read again for the solvency view.
 */
export async function settle(ctx: AppContext, upTo: bigint, head: bigint, out: PassResult): Promise<void> {
  const chain = ctx.chain;
  if (!chain) return;
  const { db } = ctx;
  await q.countConfirmations(db, head);
  const due = [
    ...(await q.pendingWatchedUpTo(db, upTo, SETTLE_BATCH)),
    ...(await q.uncheckedBelowUpTo(db, upTo, SETTLE_BATCH)),
  ];
  const canonical = new Map<bigint, string | null>();
  const blocks = [...new Set(due.map((d) => d.blockNumber ?? -1n))].filter((n) => n >= 0n);
  for (let i = 0; i < blocks.length; i += HASH_READS_AT_ONCE) {
    const batch = blocks.slice(i, i + HASH_READS_AT_ONCE);
    const headers = await Promise.all(batch.map((n) => chain.block(n)));
    batch.forEach((n, j) => canonical.set(n, must(headers[j] as ChainRead<BlockHeader | null>)?.hash ?? null));
  }
  const deep = due.filter((d) => d.blockNumber !== null && canonical.get(d.blockNumber) === d.blockHash);
  const moved = new Set(due.filter((d) => !deep.includes(d) && d.txHash).map((d) => d.txHash as string));
  for (const txHash of moved) await recheckTx(ctx, txHash, head, out);
  const now = ctx.clock.now();
  const credited = await inTransaction(db, async (tx) => {
    await q.markBelowChecked(
      tx,
      deep.filter((d) => d.status === 'failed').map((d) => d.id),
      now,
    );
    return confirmAndCreditMany(
      ctx,
      tx,
      deep.filter((d) => d.status === 'pending').map((d) => d.id),
      { processedAt: now, head },
    );
  });
  out.credited += credited.length;
  if (credited.length > 0) {
    const addresses = [...new Set(credited.map((d) => d.toAddress ?? ''))].filter(Boolean);
    const r = await refreshBalancesOf(
      ctx,
      addresses.map((address) => ({ address, kind: 'deposit' as const })),
    );
    if ('error' in r) ctx.log.warn({ err: r.error }, 'solvency: credited addresses not read again');
  }
}

/**
 * Matches the watched deposits of one transaction with what the chain says of it now (after a re-organisation):
 * a deposit whose transfer is found again takes its new block and log index (credited ones first, so a
 * transfer is never counted twice); a pending one whose transfer is gone fails as dropped; a credited one whose
 * transfer is gone is an alarm. Transfers to investors' addresses no deposit holds are recorded.
 */
export async function recheckTx(ctx: AppContext, txHash: string, head: bigint, out: PassResult): Promise<void> {
  const chain = ctx.chain!;
  const r = must(await chain.receipt(txHash));
  const found = r.found && r.status === 'success' ? r.transfers.filter((t) => t.usdc && t.value > 0n) : [];
  const fresh = await depositsIn(ctx, found, head);
  const now = ctx.clock.now();
  const gone: dq.DepositRow[] = [];
  await inTransaction(ctx.db, async (tx) => {
    const rows = await q.lockWatchedOfTx(tx, txHash);
    await q.parkLogIndexes(
      tx,
      rows.map((d) => d.id),
    );
    const unused = [...fresh];
    for (const d of rows) {
      const i = unused.findIndex(
        (t) => t.toAddress === d.toAddress && t.fromAddress === d.fromAddress && t.amount === d.amount,
      );
      const t = i >= 0 ? unused.splice(i, 1)[0] : undefined;
      const dropped = d.status === 'failed' && d.failureReason === MSG.depositDroppedByReorg;
      // Shown, never credited: when its transfer is gone it says so, as a pending one does.
      const below = d.status === 'failed' && d.failureReason === MSG.depositBelowMinimum;
      if (t) {
        await dq.updateDeposit(tx, d.id, {
          logIndex: t.logIndex,
          blockNumber: t.blockNumber,
          blockHash: t.blockHash,
          ...(d.status === 'pending' ? { confirmations: t.confirmations } : {}),
          // Found again: what the chain's transfer makes it (a below-minimum one stays failed, checked again).
          ...(dropped || below
            ? { status: t.status, failureReason: t.failureReason, processedAt: null, confirmations: t.confirmations }
            : {}),
        });
      } else {
        await dq.updateDeposit(tx, d.id, {
          logIndex: null,
          ...(d.status === 'pending' || below
            ? { status: 'failed', failureReason: MSG.depositDroppedByReorg, processedAt: now }
            : {}),
        });
        if (d.status === 'pending') out.dropped++;
        if (d.status === 'confirmed') gone.push(d);
      }
    }
    await q.recordTransfers(tx, unused);
    for (const d of gone)
      await raiseAlarm(tx, ctx, {
        kind: 'credited_gone',
        detail: `a credited deposit of ${formatUsdc(microToUsdc(d.amount), 2, 6)} USDC (transaction ${txHash}, deposit ${d.id}) is no longer on the chain`,
        blockNumber: d.blockNumber,
        at: now,
      });
  });
  for (const d of gone)
    ctx.log.error({ depositId: d.id, txHash, userId: d.userId }, 'a credited deposit is no longer on the chain');
  if (fresh.length === 0 && gone.length === 0) ctx.log.warn({ txHash }, 'deposit dropped by a chain re-organisation');
}
