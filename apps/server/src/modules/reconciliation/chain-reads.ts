import {
  completeTransfers,
  unavailableText,
  type Chain,
  type ChainRead,
  type TransferFilter,
  type TransferLog,
} from '../../chain/chain.ts';
import type { DifferenceKind } from '@harvest/shared/schemas/solvency';

/** One thing the books and the chain disagree on, as the reconciliation names it (docs/OPERATIONS.md). */
export interface ChainDifference {
  kind: DifferenceKind;
  depositId: string | null;
  userId: string | null;
  address: string | null;
  txHash: string | null;
  logIndex: number | null;
  chainAmount: bigint | null;
  creditedAmount: bigint | null;
  detail: string;
}

/** Addresses in one filtered eth_getLogs call (providers cap topic lists). */
export const ADDRESSES_PER_READ = 100;
/** Halvings of a block range a provider refused, before the run fails. */
const RANGE_HALVINGS = 24;

/** The chain could not be read: the run fails (nothing is decided from half a reading). */
export function must<T>(r: ChainRead<T>): T {
  if (!r.ok) throw new Error(unavailableText(r.error));
  return r.value;
}

/** USDC transfers to or from these addresses in a block range, the range halved while the provider refuses it. */
export async function transfersOf(
  chain: Chain,
  only: TransferFilter,
  from: bigint,
  to: bigint,
): Promise<TransferLog[]> {
  const out: TransferLog[] = [];
  let span = to - from + 1n;
  let halvings = 0;
  for (let a = from; a <= to;) {
    const b = a + span - 1n < to ? a + span - 1n : to;
    const r = await completeTransfers(chain, a, b, only);
    if (!r.ok) {
      if (span === 1n || ++halvings > RANGE_HALVINGS) must(r);
      span = span / 2n > 0n ? span / 2n : 1n;
      continue;
    }
    out.push(...r.value);
    a = b + 1n;
  }
  return out;
}

/** Per batch of ADDRESSES_PER_READ addresses: the transfers to or from them since each one's first block. */
export async function transfersOfAddresses(
  chain: Chain,
  side: 'to' | 'from',
  addresses: { address: string; fromBlock: bigint | null }[],
  start: bigint,
  through: bigint,
): Promise<TransferLog[]> {
  const out: TransferLog[] = [];
  const fromOf = new Map(addresses.map((a) => [a.address, a.fromBlock ?? start]));
  for (let i = 0; i < addresses.length && through >= 0n; i += ADDRESSES_PER_READ) {
    const batch = addresses.slice(i, i + ADDRESSES_PER_READ);
    const from = batch.reduce((m, a) => ((a.fromBlock ?? start) < m ? (a.fromBlock ?? start) : m), through + 1n);
    if (from > through) continue;
    for (const t of await transfersOf(chain, { [side]: batch.map((a) => a.address) }, from, through))
      if (t.value > 0n && t.blockNumber >= (fromOf.get(t[side]) ?? through + 1n)) out.push(t);
  }
  return out;
}
