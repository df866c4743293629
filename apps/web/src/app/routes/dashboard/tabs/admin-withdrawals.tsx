import { AdminWithdrawals } from '../../../../features/admin-withdrawals/components/admin-withdrawals.tsx';
import { CsvDownloadButton } from '../../../../features/admin-overview/components/csv-download-button.tsx';

export default function Tab() {
  return (
    <AdminWithdrawals
      toolbar={(view) => (
        <CsvDownloadButton
          path={`/admin/export/withdrawals.csv?status=${view === 'pending' ? 'pending' : 'all'}`}
          fileName={`withdrawals-${view}.csv`}
        />
      )}
    />
  );
}
