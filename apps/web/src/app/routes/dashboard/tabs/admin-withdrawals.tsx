import { AdminWithdrawals } from '../../../../features/admin-withdrawals/components/admin-withdrawals.tsx';
import { CsvDownloadMenu } from '../../../../features/admin-overview/components/csv-download-button.tsx';

/** The CSV offers both lists whatever sub-tab is shown, each named by what it holds. */
export default function Tab() {
  return (
    <AdminWithdrawals
      toolbar={
        <CsvDownloadMenu
          choices={[
            {
              label: 'Pending withdrawals',
              what: 'pending withdrawals',
              path: '/admin/export/withdrawals.csv?status=pending',
              fileName: 'withdrawals-pending.csv',
            },
            {
              label: 'All withdrawals (pending and processed)',
              what: 'withdrawals',
              path: '/admin/export/withdrawals.csv?status=all',
              fileName: 'withdrawals-all.csv',
            },
          ]}
        />
      }
    />
  );
}
