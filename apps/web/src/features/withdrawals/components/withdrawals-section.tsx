import { useMemo, useState } from 'react';
import { POLL_INVESTMENTS_MS } from '@harvest/shared/constants';
import { microToUsdc, parseUsdc } from '@harvest/shared/money';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { TEXT } from '@harvest/shared/texts';
import { useAuth } from '../../../lib/auth.tsx';
import { withdrawBreakdown } from '../lib/breakdown.ts';
import { WithdrawAllDialog } from './withdraw-all-dialog.tsx';
import { WithdrawalCard } from './withdrawal-card.tsx';
import { WithdrawalSummary } from './withdrawal-summary.tsx';
import { useQuery } from '@tanstack/react-query';
import { dashboardQuery } from '../../../lib/query-keys.ts';
import { myWithdrawalsQuery } from '../api/my-withdrawals.ts';
import { usdc } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.tsx';

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
  // Only a press shows "Refreshing...": the 2-second polls change nothing on the button.
  const [refreshing, setRefreshing] = useState(false);
  const refresh = () => {
    setRefreshing(true);
    void Promise.all([dashboard.refetch(), history.refetch()]).finally(() => setRefreshing(false));
  };

  return (
    <Card
      title={t('Cycle Withdrawals')}
      actions={
        <div className="flex flex-wrap gap-2">
          {/* The name starts with the visible words (label in name, WCAG 2.5.3): "Refresh withdrawals". */}
          <Button variant="secondary" onClick={refresh} disabled={refreshing}>
            {refreshing ? (
              t('Refreshing...')
            ) : (
              <>
                {t('Refresh')}
                <span className="sr-only"> {t('withdrawals')}</span>
              </>
            )}
          </Button>
          {/* Enabled only once the figures are read and there is something to withdraw (then it says why not). */}
          <Button variant="success" onClick={() => setOpen(true)} disabled={!breakdown || available <= 0}>
            {t('Withdraw All')}
          </Button>
        </div>
      }
    >
      <div className="space-y-5">
        {breakdown && available <= 0 && <p className="text-sm font-medium text-slate-700">{t(TEXT.noFunds)}</p>}
        <QueryState query={dashboard} what={t('your withdrawal summary')} lines={2}>
          {() => (
            <QueryState query={history} what={t('your withdrawal summary')} lines={2}>
              {() => (
                <WithdrawalSummary
                  available={available}
                  pending={summary?.pendingApproval ?? 0}
                  completed={sum(completed.map((w) => w.netAmount))}
                  fees={sum(completed.map((w) => w.feeAmount))}
                />
              )}
            </QueryState>
          )}
        </QueryState>
        {breakdown && available > 0 && (
          <p className="text-sm text-slate-700">
            {t(
              'Withdraw All sends {gross} gross: cycle earnings carry a 15% fee ({fee}), referral rewards and balance none. You receive {net}. Withdrawals may take up to 48 hours to process.',
              { gross: usdc(breakdown.gross), fee: usdc(breakdown.fee), net: usdc(breakdown.net) },
            )}
          </p>
        )}

        <section aria-labelledby="withdrawal-history">
          <h3 id="withdrawal-history" className="mb-2 text-base font-semibold text-slate-900">
            {t('Withdrawal History')}
          </h3>
          <QueryState query={history} what={t('your withdrawals')} lines={3}>
            {() =>
              withdrawals.length === 0 ? (
                <p className="text-sm text-slate-700">{t('No withdrawals yet.')}</p>
              ) : (
                <ul className="grid grid-cols-1 gap-3 md:grid-cols-2 xl:grid-cols-3">
                  {withdrawals.map((w) => (
                    <li key={w._id}>
                      <WithdrawalCard w={w} />
                    </li>
                  ))}
                </ul>
              )
            }
          </QueryState>
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
