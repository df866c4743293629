import { formatUsdc, microToUsdc } from '@harvest/shared/money';
import type { TransferLog } from '../../chain/chain.ts';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { inTransaction } from '../../db/tx.ts';
import type { DepositAddressRow } from '../deposit-addresses/deposit-addresses.queries.ts';
import { raiseAlarm, refreshBalancesOf } from '../solvency/solvency.service.ts';
import * as pq from '../withdrawals/payouts.queries.ts';
import { must } from './watcher-pass.ts';

// The transfers out of the platform's addresses that the watcher follows: recorded as ranges are read, read
// again when money left, and matched again after a deep re-organisation.

export const treasuryOf = (ctx: AppContext) => ctx.config.TREASURY_ADDRESS?.toLowerCase();

/**
 * The transfers out that the books follow: from PAYOUT_ADDRESS (payouts the watcher matches with withdrawals), and
 * from an investor's deposit address to anywhere (to TREASURY_ADDRESS: a sweep; elsewhere: an alarm).
 */
export function outgoingIn(
  ctx: AppContext,
  logs: TransferLog[],
  investors: DepositAddressRow[],
): { payouts: pq.PayoutInsert[]; sweeps: pq.SweepInsert[] } {
  const payout = ctx.config.PAYOUT_ADDRESS?.toLowerCase();
  const now = ctx.clock.now();
  const payouts = payout
    ? logs
        .filter((l) => l.from === payout)
        .map((l) => ({
          txHash: l.txHash,
          logIndex: l.logIndex,
          toAddress: l.to,
          amount: l.value,
          blockNumber: l.blockNumber,
          blockHash: l.blockHash,
          createdAt: now,
        }))
    : [];
  const owners = new Set(investors.map((o) => o.address));
  const sweeps = logs
    .filter((l) => owners.has(l.from))
    .map((l) => ({
      txHash: l.txHash,
      logIndex: l.logIndex,
      fromAddress: l.from,
      toAddress: l.to,
      amount: l.value,
      blockNumber: l.blockNumber,
      createdAt: now,
    }));
  return { payouts, sweeps };
}

/** USDC left a deposit address for somewhere other than the treasury: only its key can do that. An alarm. */
export async function sweptElsewhere(ctx: AppContext, tx: Tx, x: pq.SweepInsert): Promise<void> {
  const detail = `${formatUsdc(microToUsdc(x.amount), 2, 6)} USDC left the deposit address ${x.fromAddress} for ${x.toAddress}, not for the treasury (transaction ${x.txHash}): the deposit key signed it`;
  await raiseAlarm(tx, ctx, {
    kind: 'sweep_elsewhere',
    detail,
    blockNumber: x.blockNumber,
    at: ctx.clock.now(),
  });
  ctx.log.error(
    { from: x.fromAddress, to: x.toAddress, txHash: x.txHash },
    'deposit funds left for an address that is not the treasury',
  );
}

/** Money left the platform's addresses: the solvency view reads the ones it left (and the treasury) again now. */
export async function readAgainAfterMoneyOut(
  ctx: AppContext,
  read: { payouts: pq.PayoutInsert[]; sweeps: pq.SweepInsert[] },
): Promise<void> {
  const treasury = treasuryOf(ctx);
  const payout = ctx.config.PAYOUT_ADDRESS?.toLowerCase();
  const changed = [
    ...[...new Set(read.sweeps.map((x) => x.fromAddress))].map((address) => ({ address, kind: 'deposit' as const })),
    ...(payout && read.payouts.length > 0 ? [{ address: payout, kind: 'payout' as const }] : []),
    ...(treasury && read.sweeps.some((x) => x.toAddress === treasury)
      ? [{ address: treasury, kind: 'treasury' as const }]
      : []),
  ];
  const r = await refreshBalancesOf(ctx, changed);
  if ('error' in r) ctx.log.warn({ err: r.error }, 'solvency: addresses money left not read again');
}

/**
 * After a deep re-organisation: payouts and sweeps read above the fork and not acted on are read again; a payout
 * that completed withdrawals is found again in its new block, or is an alarm (they were paid by a transfer the
 * chain no longer has).
 */
export async function recheckPayouts(ctx: AppContext, fork: bigint, now: Date): Promise<void> {
  const { db } = ctx;
  await pq.dropUnsettledAbove(db, fork);
  for (const p of await pq.matchedAbove(db, fork)) {
    const r = must(await ctx.chain!.receipt(p.txHash));
    const again =
      r.found && r.status === 'success'
        ? r.transfers.find(
            (t) =>
              t.usdc &&
              t.to === p.toAddress &&
              t.value === p.amount &&
              t.from === ctx.config.PAYOUT_ADDRESS?.toLowerCase(),
          )
        : undefined;
    if (again)
      await pq.moveMatched(db, p.id, {
        blockNumber: again.blockNumber,
        blockHash: again.blockHash,
        logIndex: again.logIndex,
      });
    else
      await inTransaction(db, (tx) =>
        raiseAlarm(tx, ctx, {
          kind: 'payout_gone',
          detail: `a payout of ${formatUsdc(microToUsdc(p.amount), 2, 6)} USDC to ${p.toAddress} (transaction ${p.txHash}) that completed withdrawals is no longer on the chain`,
          blockNumber: p.blockNumber,
          at: now,
        }),
      );
  }
}
