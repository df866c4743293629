import { microToUsdc } from '@harvest/shared/money';
import type { Reconciliation } from '@harvest/shared/schemas/solvency';
import type { Chain } from '../../chain/chain.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { reconcile, type ChainDifference, type ReconcileResult } from './reconcile.ts';
import * as q from './reconciliation.queries.ts';

/** Differences kept with a run (all are printed by the command; the count is always whole). */
export const DIFFERENCES_KEPT = 200;
/** A run not finished after this long died with its process: another may start. */
export const RUN_STALE_MS = 60 * 60_000;

type StoredDifference = Omit<ChainDifference, 'chainAmount' | 'creditedAmount'> & {
  chainAmount: string | null;
  creditedAmount: string | null;
};

const stored = (d: ChainDifference): StoredDifference => ({
  ...d,
  chainAmount: d.chainAmount === null ? null : d.chainAmount.toString(),
  creditedAmount: d.creditedAmount === null ? null : d.creditedAmount.toString(),
});

function isStored(v: unknown): v is StoredDifference {
  return typeof v === 'object' && v !== null && 'kind' in v && 'detail' in v;
}

export function toReconciliationDto(r: q.RunRow): Reconciliation {
  const list = Array.isArray(r.differences) ? r.differences.filter(isStored) : [];
  const status = r.status === 'clean' || r.status === 'differences' || r.status === 'failed' ? r.status : 'running';
  return {
    _id: r.id,
    trigger: r.trigger,
    status,
    startedAt: r.startedAt.toISOString(),
    finishedAt: r.finishedAt ? r.finishedAt.toISOString() : null,
    throughBlock: r.throughBlock === null ? null : Number(r.throughBlock),
    checked: {
      deposits: r.checkedDeposits,
      transfers: r.checkedTransfers,
      addresses: r.checkedAddresses,
      payouts: r.checkedPayouts,
    },
    differenceCount: r.differenceCount,
    differences: list.slice(0, 20).map((d) => ({
      ...d,
      chainAmount: d.chainAmount === null ? null : microToUsdc(BigInt(d.chainAmount)),
      creditedAmount: d.creditedAmount === null ? null : microToUsdc(BigInt(d.creditedAmount)),
    })),
    error: r.error,
  };
}

export interface ReconcileDeps {
  db: Db;
  chain: Chain;
  config: Config;
  now: () => Date;
}

/** A run in progress, if one started less than RUN_STALE_MS ago. */
export function runningRun(deps: Pick<ReconcileDeps, 'db' | 'now'>) {
  return q.runningSince(deps.db, new Date(deps.now().getTime() - RUN_STALE_MS));
}

/** Starts a recorded run (the caller checked none is running). */
export function startRun(deps: Pick<ReconcileDeps, 'db' | 'now'>, trigger: string, requestedBy: string | null) {
  return q.startRun(deps.db, { trigger, requestedBy, at: deps.now() });
}

/** Compares and records the outcome of a started run: clean, differences, or failed with why. */
export async function completeRun(
  deps: ReconcileDeps,
  run: q.RunRow,
): Promise<{ run: q.RunRow; result: ReconcileResult | null }> {
  let result: ReconcileResult | null = null;
  let error: string | null = null;
  try {
    result = await reconcile(deps);
  } catch (err) {
    error = err instanceof Error ? err.message : String(err);
  }
  const finished = await q.finishRun(deps.db, run.id, {
    status: result === null ? 'failed' : result.differences.length === 0 ? 'clean' : 'differences',
    finishedAt: deps.now(),
    throughBlock: result?.through ?? null,
    checkedDeposits: result?.checked.deposits ?? 0,
    checkedTransfers: result?.checked.transfers ?? 0,
    checkedAddresses: result?.checked.addresses ?? 0,
    checkedPayouts: result?.checked.payouts ?? 0,
    differenceCount: result?.differences.length ?? 0,
    differences: (result?.differences ?? []).slice(0, DIFFERENCES_KEPT).map(stored),
    error,
  });
  return { run: finished, result };
}

/** The lines `npm run chain:reconcile` prints for one difference. */
export function differenceLine(d: ChainDifference): string {
  const amounts = [
    d.creditedAmount !== null ? `credited ${microToUsdc(d.creditedAmount)} USDC` : null,
    d.chainAmount !== null ? `on chain ${microToUsdc(d.chainAmount)} USDC` : null,
  ].filter(Boolean);
  return [
    `${d.kind.toUpperCase()}: ${d.detail}`,
    `    address ${d.address ?? '-'}  tx ${d.txHash ?? '-'}  log ${d.logIndex ?? '-'}  ${amounts.join(', ')}`,
    `    deposit ${d.depositId ?? '-'}  user ${d.userId ?? '-'}`,
  ].join('\n');
}
