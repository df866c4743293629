import { microToUsdc } from '@harvest/shared/money';
import { unavailableText, type Chain } from '../../chain/chain.ts';
import type { Db } from '../../db/client.ts';
import { allAddresses } from '../deposit-addresses/deposit-addresses.queries.ts';

export interface SweepPlan {
  rows: { childIndex: number; address: string; balance: bigint }[];
  total: bigint;
  addresses: number;
  block: bigint | null;
}

/** The USDC each investor deposit address holds on chain (JSON-RPC batches), the ones holding some first by index. */
export async function sweepPlan(db: Db, chain: Chain): Promise<SweepPlan | { error: string }> {
  const addresses = await allAddresses(db);
  const head = await chain.headBlock();
  const read = await chain.usdcBalances(addresses.map((a) => a.address));
  if (!read.ok) return { error: unavailableText(read.error) };
  const rows = addresses.map((a) => ({
    childIndex: a.childIndex,
    address: a.address,
    balance: read.value.get(a.address) ?? 0n,
  }));
  return {
    rows,
    total: rows.reduce((n, r) => n + r.balance, 0n),
    addresses: addresses.length,
    block: head.ok ? head.value : null,
  };
}

/** The printed plan: one tab-separated line per address holding USDC (all with `all`), then the total. */
export function sweepPlanLines(plan: SweepPlan, chainId: number, all = false): string[] {
  const holding = plan.rows.filter((r) => r.balance > 0n);
  return [
    `Sweep plan: USDC on chain ${chainId}${plan.block !== null ? ` at block ${plan.block}` : ''}`,
    'child\tpath (under DEPOSIT_XPUB)\taddress\tUSDC',
    ...(all ? plan.rows : holding).map(
      (r) => `${r.childIndex}\t.../${r.childIndex}\t${r.address}\t${microToUsdc(r.balance)}`,
    ),
    `Total: ${microToUsdc(plan.total)} USDC in ${holding.length} of ${plan.addresses} deposit addresses`,
  ];
}
