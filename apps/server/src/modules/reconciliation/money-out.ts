import type { Chain } from '../../chain/chain.ts';
import { DEMO_DEPOSIT_ADDRESS, type Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { must, transfersOf, transfersOfAddresses, type ChainDifference } from './chain-reads.ts';
import * as q from './reconciliation.queries.ts';

/** Receipts of approved payouts asked for at once. */
const RECEIPTS_AT_ONCE = 8;

const none = { depositId: null, userId: null } as const;

/**
 * Money out against the chain (DOMAIN.md, "Money out"), both ways and to the micro-USDC:
 * - every USDC transfer out of PAYOUT_ADDRESS up to `through` (to anyone but the platform's own addresses) is carried
 *   by withdrawals approved with its hash for its wallet: nothing more (`unmatched_payout`, `paid_after_rejection`,
 *   `overpaid`). A transfer the watcher has not looked at yet waits for the next run; one an administrator
 *   dismissed (the operator's own move, audited) is explained;
 * - every approved withdrawal's payout transaction carries its net amount to its wallet (`unpaid`);
 * - every transfer out of an investor's deposit address went to TREASURY_ADDRESS (`sweep_elsewhere`).
 */
export async function reconcileMoneyOut(
  deps: { db: Db; chain: Chain; config: Config },
  through: bigint,
  addresses: { address: string; fromBlock: bigint | null }[],
): Promise<{ differences: ChainDifference[]; checked: number }> {
  const { db, chain, config } = deps;
  const differences: ChainDifference[] = [];
  const start = config.depositStartBlock ?? 0n;
  const payout = config.PAYOUT_ADDRESS?.toLowerCase();
  const treasury = config.TREASURY_ADDRESS?.toLowerCase();
  let checked = 0;
  const approvals = await q.approvedPayouts(db);

  if (payout && through >= start) {
    const own = new Set([payout, ...addresses.map((a) => a.address)]);
    if (treasury) own.add(treasury);
    if (config.DEPOSIT_ADDRESS.toLowerCase() !== DEMO_DEPOSIT_ADDRESS.toLowerCase())
      own.add(config.DEPOSIT_ADDRESS.toLowerCase());
    const sent = new Map<string, { txHash: string; to: string; value: bigint; logIndex: number }>();
    for (const t of await transfersOf(chain, { from: [payout] }, start, through)) {
      if (own.has(t.to) || t.value === 0n) continue;
      const k = `${t.txHash}:${t.to}`;
      const g = sent.get(k) ?? { txHash: t.txHash, to: t.to, value: 0n, logIndex: t.logIndex };
      g.value += t.value;
      sent.set(k, g);
    }
    const approved = new Map(approvals.map((p) => [`${p.txHash}:${p.wallet}`, p.approved]));
    const watched = new Map((await q.payoutTransferStates(db)).map((p) => [`${p.txHash}:${p.logIndex}`, p.status]));
    for (const g of sent.values()) {
      checked++;
      const paid = approved.get(`${g.txHash}:${g.to}`) ?? 0n;
      if (g.value <= paid) continue;
      const state = watched.get(`${g.txHash}:${g.logIndex}`);
      if (paid === 0n && (state === 'pending' || state === 'dismissed')) continue;
      const base = { ...none, address: g.to, txHash: g.txHash, logIndex: g.logIndex, chainAmount: g.value };
      if (paid > 0n) {
        differences.push({
          ...base,
          kind: 'overpaid',
          creditedAmount: paid,
          detail: 'this payout carried more to the wallet than the withdrawals approved with it',
        });
        continue;
      }
      const rejected = await q.rejectedNetTo(db, g.to);
      differences.push({
        ...base,
        kind: rejected.includes(g.value) ? 'paid_after_rejection' : 'unmatched_payout',
        creditedAmount: null,
        detail: rejected.includes(g.value)
          ? 'paid from the payout address to a wallet whose withdrawal of this amount was rejected'
          : `paid from the payout address, but no approved withdrawal accounts for it${state === 'held' ? ' (held: the account is frozen)' : ''}`,
      });
    }
  }

  // Every approval: its payout transaction carries its net amounts to its wallet.
  for (let i = 0; i < approvals.length; i += RECEIPTS_AT_ONCE) {
    const batch = approvals.slice(i, i + RECEIPTS_AT_ONCE);
    const receipts = await Promise.all(batch.map((p) => chain.receipt(p.txHash)));
    batch.forEach((p, j) => {
      const receipt = must(receipts[j]!);
      const carried =
        receipt.found && receipt.status === 'success'
          ? receipt.transfers
              .filter((t) => t.usdc && t.from === payout && t.to === p.wallet)
              .reduce((n, t) => n + t.value, 0n)
          : 0n;
      if (carried < p.approved)
        differences.push({
          ...none,
          kind: 'unpaid',
          address: p.wallet,
          txHash: p.txHash,
          logIndex: null,
          chainAmount: carried,
          creditedAmount: p.approved,
          detail: 'withdrawals approved with this payout, which does not carry their net amounts to the wallet',
        });
    });
  }

  // Investors' deposit addresses: money leaves them for the treasury only (from the block each was handed out on).
  for (const t of await transfersOfAddresses(chain, 'from', addresses, start, through)) {
    checked++;
    if (t.to !== treasury)
      differences.push({
        ...none,
        kind: 'sweep_elsewhere',
        address: t.from,
        txHash: t.txHash,
        logIndex: t.logIndex,
        chainAmount: t.value,
        creditedAmount: null,
        detail: `USDC left this deposit address for ${t.to}, not for the treasury${treasury ? ` ${treasury}` : ' (TREASURY_ADDRESS is not set)'}`,
      });
  }
  return { differences, checked };
}
