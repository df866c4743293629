import { msg } from '@harvest/shared/i18n';
import { TEXT } from '@harvest/shared/texts';
import type { AdminDeposit } from '@harvest/shared/schemas/deposits';
import type { AdminWithdrawal } from '@harvest/shared/schemas/withdrawals';
import { Card, StatCard } from '../../../components/ui/card.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { ExportPicker } from './csv-download-button.tsx';
import { useQuery } from '@tanstack/react-query';
import { adminDashboardQuery } from '../api/admin-dashboard.ts';
import { count, dateTime, fullName, usdc } from '../../../lib/format.ts';
import { Email } from '../../../components/ui/email.tsx';
import { t } from '../../../lib/i18n.tsx';

const DEPOSIT_STYLE: Record<AdminDeposit['status'], string> = {
  pending: 'bg-amber-100 text-amber-800',
  confirmed: 'bg-emerald-100 text-emerald-800',
  failed: 'bg-rose-100 text-rose-800',
};
const WITHDRAWAL_STYLE: Record<AdminWithdrawal['status'], string> = {
  pending: 'bg-amber-100 text-amber-800',
  approved: 'bg-emerald-100 text-emerald-800',
  rejected: 'bg-rose-100 text-rose-800',
};
/** The status as the list writes it (lower case, capitalised by CSS). */
const DEPOSIT_LABEL: Record<AdminDeposit['status'], string> = {
  pending: msg('pending'),
  confirmed: msg('confirmed'),
  failed: msg('failed'),
};
const WITHDRAWAL_LABEL: Record<AdminWithdrawal['status'], string> = {
  pending: msg('Pending'),
  approved: msg('Completed'),
  rejected: msg('Rejected'),
};

function Badge({ className, children }: { className: string; children: string }) {
  return <span className={`rounded-full px-2 py-0.5 text-xs font-semibold capitalize ${className}`}>{children}</span>;
}

/** Admin overview (spec: totals, pending counts, recent deposits and withdrawals). */
export function AdminOverview() {
  const q = useQuery(adminDashboardQuery());
  return (
    <QueryState
      query={q}
      what={t('the admin dashboard')}
      fallback={TEXT.dashboardFailed}
      lines={4}
      frame={(state) => <Card title={t('Admin Overview')}>{state}</Card>}
    >
      {({ metrics, recentActivity }) => (
        <div className="space-y-6">
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
            <StatCard label={t('Total Users')} value={count(metrics.totalUsers)} />
            <StatCard label={t('Total Deposits')} value={usdc(metrics.totalDeposits)} tone="emerald" />
            <StatCard label={t('Admin Adjustments (net)')} value={usdc(metrics.totalAdjustments)} tone="sky" />
            <StatCard label={t('Total Investments')} value={usdc(metrics.totalInvestments)} tone="sky" />
            <StatCard label={t('Pending Deposits')} value={count(metrics.pendingDeposits)} tone="amber" />
            {/* A count to work through, not money going out: no red. */}
            <StatCard label={t('Pending Withdrawals')} value={count(metrics.pendingWithdrawals)} tone="amber" />
          </div>
          <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
            <Card title={t('Recent Deposits')}>
              {recentActivity.deposits.length === 0 ? (
                <p className="text-sm text-slate-500">{t('No deposits yet.')}</p>
              ) : (
                <ul className="divide-y divide-slate-200">
                  {recentActivity.deposits.map((d) => (
                    <li key={d._id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                      <div className="min-w-0">
                        <p className="truncate font-medium text-slate-900">{fullName(d.userId)}</p>
                        <p className="text-xs text-slate-600">
                          <Email address={d.userId.email} />
                        </p>
                        <p className="text-xs whitespace-nowrap text-slate-600">{dateTime(d.createdAt)}</p>
                      </div>
                      <div className="flex items-center gap-2">
                        <span className="font-semibold text-slate-900">{usdc(d.amount)}</span>
                        <Badge className={DEPOSIT_STYLE[d.status]}>{t(DEPOSIT_LABEL[d.status])}</Badge>
                      </div>
                    </li>
                  ))}
                </ul>
              )}
            </Card>
            <Card title={t('Recent Withdrawals')}>
              {recentActivity.withdrawals.length === 0 ? (
                <p className="text-sm text-slate-500">{t('No withdrawals yet.')}</p>
              ) : (
                <ul className="divide-y divide-slate-200">
                  {recentActivity.withdrawals.map((w) => (
                    <li key={w._id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                      <div className="min-w-0">
                        <p className="truncate font-medium text-slate-900">{fullName(w.userId)}</p>
                        <p className="text-xs text-slate-600">
                          <Email address={w.userId.email} />
                        </p>
                        <p className="text-xs whitespace-nowrap text-slate-600">{dateTime(w.requestedAt)}</p>
                      </div>
                      <div className="flex items-center gap-2">
                        <span className="font-semibold text-slate-900">{usdc(w.amount)}</span>
                        <Badge className={WITHDRAWAL_STYLE[w.status]}>{t(WITHDRAWAL_LABEL[w.status])}</Badge>
                      </div>
                    </li>
                  ))}
                </ul>
              )}
            </Card>
          </div>
          <ExportsCard />
        </div>
      )}
    </QueryState>
  );
}

/** CSV exports of deposits and withdrawals, each for the chosen status. */
function ExportsCard() {
  return (
    <Card title={t('Exports')}>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <ExportPicker
          label={t('Deposits status')}
          statuses={['all', 'pending', 'confirmed', 'failed']}
          what={t('deposits')}
          file="deposits"
          path="/admin/export/deposits.csv"
          buttonLabel={t('Deposits CSV')}
        />
        <ExportPicker
          label={t('Withdrawals status')}
          statuses={['all', 'pending', 'approved', 'rejected']}
          what={t('withdrawals')}
          file="withdrawals"
          path="/admin/export/withdrawals.csv"
          buttonLabel={t('Withdrawals CSV')}
        />
      </div>
    </Card>
  );
}
