import { UpdateBalanceForm } from '../../../../features/admin-balance/components/update-balance-form.tsx';
import { CsvDownloadButton } from '../../../../features/admin-overview/components/csv-download-button.tsx';
import { t } from '../../../../lib/i18n.tsx';
import { useCan } from '../../../../lib/auth.tsx';
import { UsersPanel } from '../../../../features/admin-users/components/users-panel.tsx';
import { StatementDownload } from '../../../../features/statements/components/statement-download.tsx';

export default function Tab() {
  // Update Balance moves money: only a role that may is given the form (packages/shared/src/staff.ts).
  const money = useCan('money');
  return (
    <UsersPanel
      toolbar={(search) => (
        <CsvDownloadButton
          path={`/admin/export/users.csv${search ? `?search=${encodeURIComponent(search)}` : ''}`}
          fileName="users.csv"
          what={search ? t('users matching “{search}”', { search }) : t('users')}
        />
      )}
      balanceForm={money ? (user, onDone) => <UpdateBalanceForm user={user} onDone={onDone} /> : undefined}
      statementForm={(user) => <StatementDownload userId={user._id} />}
    />
  );
}
