import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/tx.ts';
import { DEPOSIT_WATCHER } from '../deposit-addresses/deposit-addresses.service.ts';
import { raiseAlarm, refreshOnchainBalances } from '../solvency/solvency.service.ts';
import { recheckTx } from './watcher-credit.ts';
import type { WatcherLease } from './watcher-lease.ts';
import { recheckPayouts } from './watcher-money-out.ts';
import { must, WatcherFault, type Cursor, type PassResult } from './watcher-pass.ts';
import * as q from './watcher.queries.ts';

/**
 * The cursor's block left the chain: a re-organisation deeper than the confirmations. An alarm; then back to the
 * newest checkpoint still on the chain (binary search: a checkpoint on the chain has every older one on it too),
 * every deposit read above it matched with its transaction again, and the cursor moved there. No checkpoint on
 * the chain: the watcher stops and says so, rather than trust a block it has not compared.
 */
export async function rewind(
  ctx: AppContext,
  lease: WatcherLease,
  cursor: Cursor,
  head: bigint,
  out: PassResult,
): Promise<Cursor | null> {
  const chain = ctx.chain!;
  const { db } = ctx;
  const conf = ctx.config.DEPOSIT_CONFIRMATIONS;
  const now = ctx.clock.now();
  const checkpoints = await q.checkpointsBelow(db, DEPOSIT_WATCHER, cursor.blockNumber - 1n);
  let lo = 0;
  let hi = checkpoints.length - 1;
  let found: Cursor | null = null;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const cp = checkpoints[mid]!;
    if (must(await chain.block(cp.blockNumber))?.hash === cp.blockHash) {
      found = { blockNumber: cp.blockNumber, blockHash: cp.blockHash };
      hi = mid - 1;
    } else lo = mid + 1;
  }
  if (!found) {
    const detail = `block ${cursor.blockNumber} left the chain and none of the ${checkpoints.length} checkpoints below it is on the chain: the watcher stopped (docs/OPERATIONS.md)`;
    await inTransaction(db, (tx) =>
      raiseAlarm(tx, ctx, { kind: 'fork_not_found', detail, blockNumber: cursor.blockNumber, at: now }),
    );
    ctx.log.error({ block: cursor.blockNumber }, 'deposit watcher: fork point not found, stopped');
    throw new WatcherFault('fork_not_found', detail);
  }
  const fork = found;
  await inTransaction(db, (tx) =>
    raiseAlarm(tx, ctx, {
      kind: 'deep_reorg',
      detail: `a re-organisation deeper than the ${conf} confirmations replaced blocks ${fork.blockNumber + 1n}-${cursor.blockNumber}`,
      blockNumber: fork.blockNumber + 1n,
      at: now,
    }),
  );
  ctx.metrics.watcherErrors.inc({ kind: 'deep_reorg' });
  ctx.log.error(
    { from: cursor.blockNumber, to: fork.blockNumber },
    'chain re-organisation deeper than the confirmations',
  );
  for (const txHash of await q.watchedTxsAbove(db, fork.blockNumber)) await recheckTx(ctx, txHash, head, out);
  await recheckPayouts(ctx, fork.blockNumber, now);
  const ok = await inTransaction(db, async (tx) => {
    const moved = await lease.advance(tx, cursor, fork);
    if (moved) await q.dropCheckpointsAbove(tx, DEPOSIT_WATCHER, fork.blockNumber);
    return moved;
  });
  out.rewound = true;
  // What the addresses hold changed with the chain: the solvency view reads it again now.
  const r = await refreshOnchainBalances(ctx);
  if ('error' in r) ctx.log.warn({ err: r.error }, 'solvency: balances not read again after the re-organisation');
  return ok ? fork : null;
}
