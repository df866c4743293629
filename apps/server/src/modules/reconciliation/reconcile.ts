import { MSG } from '@harvest/shared/messages';
import type { Chain, TransferLog } from '../../chain/chain.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { DEPOSIT_WATCHER } from '../deposit-addresses/deposit-addresses.service.ts';
import { findCursor } from '../deposits/watcher.queries.ts';
import { must, transfersOfAddresses, type ChainDifference } from './chain-reads.ts';
import { reconcileMoneyOut } from './money-out.ts';
import * as q from './reconciliation.queries.ts';

export type { ChainDifference };

/** Receipts of shared-address claims asked for at once. */
const RECEIPTS_AT_ONCE = 8;

export interface ReconcileResult {
  head: bigint;
  /** Blocks up to here were compared (deep enough, and read by the watcher). */
  through: bigint;
  checked: { deposits: number; transfers: number; addresses: number; payouts: number };
  differences: ChainDifference[];
}

const key = (txHash: string | null, logIndex: number | null) => `${txHash}:${logIndex}`;

/**
 * Money in and out against the chain (DOMAIN.md): every credited on-chain deposit must match its transfer (token,
 * recipient, sender, amount, depth), and every USDC transfer to a handed-out deposit address, from the block it
 * counts from to the last block both deep enough and read by the watcher, must be a deposit: credited, pending, or
 * failed with why. Money out is `reconcileMoneyOut`'s. Read-only.
 */
export async function reconcile(deps: { db: Db; chain: Chain; config: Config }): Promise<ReconcileResult> {
  const { db, chain, config } = deps;
  const differences: ChainDifference[] = [];
  const head = must(await chain.headBlock());
  const depth = BigInt(config.DEPOSIT_CONFIRMATIONS);
  const deep = depth === 0n ? head : head - depth + 1n;
  const cursor = (await findCursor(db, DEPOSIT_WATCHER))?.blockNumber ?? -1n;
  const through = cursor < deep ? cursor : deep;

  // Per-investor addresses: one read of every transfer to them, compared both ways.
  const addresses = await q.handedOutAddresses(db);
  const rows = await q.watchedDeposits(db);
  const start = config.depositStartBlock ?? 0n;
  const onChain = new Map<string, TransferLog>();
  for (const t of await transfersOfAddresses(chain, 'to', addresses, start, through))
    onChain.set(key(t.txHash, t.logIndex), t);
  const byKey = new Map(rows.map((r) => [key(r.txHash, r.logIndex), r]));
  let checkedDeposits = 0;
  for (const r of rows) {
    if (r.status !== 'confirmed' || (r.blockNumber !== null && r.blockNumber > through)) continue;
    checkedDeposits++;
    const base = {
      depositId: r.id,
      userId: r.userId,
      address: r.toAddress,
      txHash: r.txHash,
      logIndex: r.logIndex,
      creditedAmount: r.amount,
    };
    const t = onChain.get(key(r.txHash, r.logIndex));
    if (!t)
      differences.push({
        ...base,
        kind: 'unbacked',
        chainAmount: null,
        detail: 'credited, but no such USDC transfer to this address is on the chain',
      });
    else if (t.value !== r.amount || t.to !== r.toAddress || t.from !== r.fromAddress)
      differences.push({
        ...base,
        kind: 'differs',
        chainAmount: t.value,
        detail: `the chain's transfer is ${t.value} micro-USDC from ${t.from} to ${t.to}`,
      });
  }
  for (const t of onChain.values()) {
    const r = byKey.get(key(t.txHash, t.logIndex));
    if (r?.status === 'confirmed') continue;
    const base = { address: t.to, txHash: t.txHash, logIndex: t.logIndex, chainAmount: t.value };
    if (!r || (r.status === 'failed' && r.failureReason === MSG.depositDroppedByReorg))
      differences.push({
        ...base,
        kind: 'missed',
        depositId: r?.id ?? null,
        userId: r?.userId ?? null,
        creditedAmount: null,
        detail: r
          ? `on the chain in block ${t.blockNumber}, but shown to its investor as dropped`
          : `a transfer in block ${t.blockNumber} that no deposit records`,
      });
    else if (t.value !== r.amount || t.to !== r.toAddress || t.from !== r.fromAddress)
      differences.push({
        ...base,
        kind: 'differs',
        depositId: r.id,
        userId: r.userId,
        creditedAmount: null,
        detail: `the ${r.status} deposit says ${r.amount} micro-USDC from ${r.fromAddress}`,
      });
  }

  // Claims against the shared address: each credited one read again from its receipt.
  const shared = config.DEPOSIT_ADDRESS.toLowerCase();
  const claims = await q.creditedSharedClaims(db);
  for (let i = 0; i < claims.length; i += RECEIPTS_AT_ONCE) {
    const batch = claims.slice(i, i + RECEIPTS_AT_ONCE);
    const receipts = await Promise.all(batch.map((c) => (c.txHash ? chain.receipt(c.txHash) : null)));
    batch.forEach((c, j) => {
      checkedDeposits++;
      const read = receipts[j];
      const receipt = read ? must(read) : null;
      const base = {
        depositId: c.id,
        userId: c.userId,
        address: shared,
        txHash: c.txHash,
        logIndex: c.logIndex,
        creditedAmount: c.amount,
      };
      const t =
        receipt?.found && receipt.status === 'success'
          ? receipt.transfers.find((x) =>
              c.logIndex !== null
                ? x.logIndex === c.logIndex
                : x.to === shared && x.from === c.fromAddress && x.value === c.amount,
            )
          : undefined;
      if (!receipt?.found || !t) {
        differences.push({
          ...base,
          kind: 'unbacked',
          chainAmount: null,
          detail: 'credited, but its transaction carries no such transfer',
        });
      } else if (!t.usdc || t.to !== shared || t.value !== c.amount || t.from !== c.fromAddress) {
        differences.push({
          ...base,
          kind: 'differs',
          chainAmount: t.value,
          detail: `the chain's transfer is ${t.value} of token ${t.token} from ${t.from} to ${t.to}`,
        });
      } else if (t.blockNumber > deep) {
        differences.push({
          ...base,
          kind: 'too_shallow',
          chainAmount: t.value,
          detail: `block ${t.blockNumber} is not yet ${depth} deep`,
        });
      }
    });
  }
  const out = await reconcileMoneyOut(deps, through, addresses);
  differences.push(...out.differences);

  return {
    head,
    through,
    checked: { deposits: checkedDeposits, transfers: onChain.size, addresses: addresses.length, payouts: out.checked },
    differences,
  };
}
