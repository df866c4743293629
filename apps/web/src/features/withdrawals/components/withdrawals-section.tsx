import { useMemo, useState } from 'react';
import { POLL_INVESTMENTS_MS } from '@harvest/shared/constants';
import { microToUsdc, parseUsdc } from '@harvest/shared/money';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { useAuth } from '../../../lib/auth.tsx';
import { withdrawBreakdown } from '../lib/breakdown.ts';
import { usd } from '../lib/format.ts';
import { WithdrawAllDialog } from './withdraw-all-dialog.tsx';
import { WithdrawalCard } from './withdrawal-card.tsx';
import { WithdrawalSummary } from './withdrawal-summary.tsx';
import { useQuery } from '@tanstack/react-query';
import { dashboardQuery, myWithdrawalsQuery } from '../../../lib/query-keys.ts';

const sum = (values: number[]) => microToUsdc(values.reduce((s, v) => s + (parseUsdc(v) ?? 0n), 0n));

/**
 * The Investments tab's withdrawal parts: Cycle Withdrawals (with refresh), the Withdrawal
 * Summary, the Withdraw All flow and the withdrawal history; read again every 2 s while shown.
 */
export function WithdrawalsSection() {
  const { user, setUser } = useAuth();
  const dashboard = useQuery(dashboardQuery(POLL_INVESTMENTS_MS));
  const history = useQuery(myWithdrawalsQuery(POLL_INVESTMENTS_MS));
  const [open, setOpen] = useState(false);

  const withdrawals = useMemo(() => history.data?.withdrawals ?? [], [history.data]);
  const completed = useMemo(() => withdrawals.filter((w) => w.status === 'approved'), [withdrawals]);
  const summary = dashboard.data?.accountSummary;
  const breakdown = useMemo(() => (dashboard.data ? withdrawBreakdown(dashboard.data) : null), [dashboard.data]);
  const available = summary?.availableToWithdraw ?? 0;
  const refreshing = dashboard.isFetching || history.isFetching;

  return (
    <Card
      title="Cycle Withdrawals"
      actions={
        <div className="flex flex-wrap gap-2">
          <Button
            variant="secondary"
            onClick={() => void Promise.all([dashboard.refetch(), history.refetch()])}
            disabled={refreshing}
            aria-label="Refresh withdrawals"
          >
            {refreshing ? 'Refreshing...' : 'Refresh'}
          </Button>
          <Button variant="success" onClick={() => setOpen(true)} disabled={!breakdown || available <= 0}>
            Withdraw All
          </Button>
        </div>
      }
    >
      <div className="space-y-5">
        <WithdrawalSummary
          available={available}
          pending={summary?.pendingApproval ?? 0}
          completed={sum(completed.map((w) => w.netAmount))}
          fees={sum(completed.map((w) => w.feeAmount))}
        />
        {breakdown && available > 0 && (
          <p className="text-sm text-slate-600">
            Withdraw All sends {usd(breakdown.gross)} gross: cycle earnings carry a 15% fee ({usd(breakdown.fee)}),
            referral rewards and balance none. You receive {usd(breakdown.net)}. Withdrawals may take up to 48 hours to
            process.
          </p>
        )}

        <section aria-labelledby="withdrawal-history">
          <h3 id="withdrawal-history" className="mb-2 text-base font-semibold text-slate-900">
            Withdrawal History
          </h3>
          {history.isPending ? (
            <p className="text-sm text-slate-500">Loading withdrawals...</p>
          ) : history.isError && withdrawals.length === 0 ? (
            <p className="text-sm text-rose-700">Could not load your withdrawals. They will refresh automatically.</p>
          ) : withdrawals.length === 0 ? (
            <p className="text-sm text-slate-500">No withdrawals yet.</p>
          ) : (
            <ul className="grid grid-cols-1 gap-3 md:grid-cols-2 xl:grid-cols-3">
              {withdrawals.map((w) => (
                <li key={w._id}>
                  <WithdrawalCard w={w} />
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>

      {breakdown && (
        <WithdrawAllDialog
          open={open}
          onClose={() => setOpen(false)}
          breakdown={breakdown}
          lastWallet={user?.withdrawalWallet ?? summary?.withdrawalWallet ?? null}
          onDone={(wallet) => user && setUser({ ...user, withdrawalWallet: wallet })}
        />
      )}
    </Card>
  );
}
