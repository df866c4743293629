import { unavailableText, type BlockHeader, type ChainRead } from '../../chain/chain.ts';

/** Why a pass stopped without deciding anything: it is tried again later. */
export type FaultKind = 'rpc' | 'lagging' | 'truncated' | 'changed' | 'fork_not_found';

export class WatcherFault extends Error {
  constructor(
    readonly kind: FaultKind,
    message: string,
  ) {
    super(message);
  }
}

/** A chain answer, or the fault that stops the pass. */
export function must<T>(r: ChainRead<T>): T {
  if (!r.ok) throw new WatcherFault(r.error.kind === 'truncated' ? 'truncated' : 'rpc', unavailableText(r.error));
  return r.value;
}

export function present(b: BlockHeader | null, n: bigint): BlockHeader {
  if (!b) throw new WatcherFault('lagging', `the node has no block ${n} yet (a lagging node): waiting`);
  return b;
}

export interface PassResult {
  ran: boolean;
  /** Why it did not run to the end: off, another instance holds the lease, or a fault. */
  stopped?: 'off' | 'lease' | 'fault';
  fault?: FaultKind;
  blocks: number;
  transfers: number;
  recorded: number;
  credited: number;
  dropped: number;
  /** Payout transfers that completed withdrawals by themselves. */
  payouts: number;
  rewound: boolean;
}

export type Cursor = { blockNumber: bigint; blockHash: string };
