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
            <ActivityCard
              title={t('Recent Deposits')}
              empty={t('No deposits yet.')}
              rows={recentActivity.deposits.map((d) => ({
                id: d._id,
                user: d.userId,
                at: d.createdAt,
                amount: d.amount,
                badge: { cls: DEPOSIT_STYLE[d.status], label: DEPOSIT_LABEL[d.status] },
              }))}
            />
            <ActivityCard
              title={t('Recent Withdrawals')}
              empty={t('No withdrawals yet.')}
              rows={recentActivity.withdrawals.map((w) => ({
                id: w._id,
                user: w.userId,
                at: w.requestedAt,
                amount: w.amount,
                badge: { cls: WITHDRAWAL_STYLE[w.status], label: WITHDRAWAL_LABEL[w.status] },
              }))}
            />
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

interface ActivityRow {
  id: string;
  user: Parameters<typeof fullName>[0] & { email: string };
  at: string;
  amount: number;
  badge: { cls: string; label: string };
}

/** One list of recent money movements: who, when, how much, and its status. */
function ActivityCard({ title, empty, rows }: { title: string; empty: string; rows: ActivityRow[] }) {
  return (
    <Card title={title}>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-500">{empty}</p>
      ) : (
        <ul className="divide-y divide-slate-200">
          {rows.map((r) => (
            <li key={r.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <div className="min-w-0">
                <p className="font-medium text-slate-900">{fullName(r.user)}</p>
                <p className="text-xs text-slate-600">
                  <Email address={r.user.email} />
                </p>
                <p className="text-xs whitespace-nowrap text-slate-600">{dateTime(r.at)}</p>
              </div>
              <div className="flex flex-wrap items-center gap-2">
                <span className="font-semibold whitespace-nowrap text-slate-900">{usdc(r.amount)}</span>
                <Badge className={r.badge.cls}>{t(r.badge.label)}</Badge>
              </div>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
