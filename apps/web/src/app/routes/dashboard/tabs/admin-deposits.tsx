import { AdminDepositsPanel } from '../../../../features/admin-deposits/components/admin-deposits-panel.tsx';
import { CsvDownloadButton } from '../../../../features/admin-overview/components/csv-download-button.tsx';
import { t } from '../../../../lib/i18n.tsx';

export default function Tab() {
  return (
    <AdminDepositsPanel
      toolbar={(filter) => (
        <CsvDownloadButton
          path={`/admin/export/deposits.csv?status=${filter}`}
          fileName={`deposits-${filter}.csv`}
          what={
            filter === 'pending'
              ? t('pending deposits')
              : filter === 'confirmed'
                ? t('confirmed deposits')
                : filter === 'failed'
                  ? t('failed deposits')
                  : t('deposits')
          }
        />
      )}
    />
  );
}
