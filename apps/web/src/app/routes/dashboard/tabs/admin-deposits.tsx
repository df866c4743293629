import { AdminDepositsPanel } from '../../../../features/admin-deposits/components/admin-deposits-panel.tsx';
import { CsvDownloadButton } from '../../../../features/admin-overview/components/csv-download-button.tsx';

export default function Tab() {
  return (
    <AdminDepositsPanel
      toolbar={(filter) => (
        <CsvDownloadButton
          path={`/admin/export/deposits.csv?status=${filter}`}
          fileName={`deposits-${filter}.csv`}
          what={filter === 'all' ? 'deposits' : `${filter} deposits`}
        />
      )}
    />
  );
}
