import { StatCard } from '../../../components/ui/card.tsx';
import { usdc } from '../../../lib/format.ts';

/** Withdrawal Summary: available and pending from the account summary; completed and fees from the history. */
export function WithdrawalSummary({
  available,
  pending,
  completed,
  fees,
}: {
  available: number;
  pending: number;
  completed: number;
  fees: number;
}) {
  return (
    <div role="group" className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4" aria-label="Withdrawal Summary">
      <StatCard label="Available" value={usdc(available)} tone="emerald" />
      <StatCard label="Pending" value={usdc(pending)} tone="amber" />
      <StatCard label="Completed" value={usdc(completed)} tone="sky" />
      <StatCard label="Fees Paid" value={usdc(fees)} tone={fees > 0 ? 'rose' : 'sky'} />
    </div>
  );
}
