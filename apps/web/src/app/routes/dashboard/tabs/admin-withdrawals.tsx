import { AdminWithdrawals } from '../../../../features/admin-withdrawals/components/admin-withdrawals.tsx';
import { FoundPayouts } from '../../../../features/admin-withdrawals/components/found-payouts.tsx';
import { PayoutBatches } from '../../../../features/admin-withdrawals/components/payout-batches.tsx';
import { CsvDownloadMenu } from '../../../../features/admin-overview/components/csv-download-button.tsx';
import { WithdrawalPolicyPanel } from '../../../../features/withdrawal-limits/components/withdrawal-policy-form.tsx';
import { t } from '../../../../lib/i18n.tsx';

/**
 * Payouts found on chain that need a decision, the lists with the Process Withdrawal panel (the CSV offers both
 * lists whatever sub-tab is shown), the payout batches, and the withdrawal limits.
 */
export default function Tab() {
  return (
    <div className="space-y-4">
      <FoundPayouts />
      <AdminWithdrawals
        toolbar={
          <CsvDownloadMenu
            choices={[
              {
                label: t('Pending withdrawals'),
                what: t('pending withdrawals'),
                path: '/admin/export/withdrawals.csv?status=pending',
                fileName: 'withdrawals-pending.csv',
              },
              {
                label: t('All withdrawals (pending and processed)'),
                what: t('withdrawals'),
                path: '/admin/export/withdrawals.csv?status=all',
                fileName: 'withdrawals-all.csv',
              },
            ]}
          />
        }
      />
      <PayoutBatches />
      <WithdrawalPolicyPanel />
    </div>
  );
}
