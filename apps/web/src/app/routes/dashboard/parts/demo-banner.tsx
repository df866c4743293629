import { t } from '../../../../lib/i18n.tsx';
/** Demo mode (no chain configured): nothing sent to the address is real, an administrator confirms deposits. */
export function DemoBanner({ admin }: { admin: boolean }) {
  return (
    <div
      role="note"
      aria-label={t('Demo mode')}
      className="mb-4 rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
    >
      <strong>{t('Demo mode.')}</strong>{' '}
      {admin
        ? t('No blockchain is connected: deposits are demo deposits, confirmed by hand on the Deposits tab.')
        : t(
            'Send nothing real: no blockchain is connected, the deposit address is a placeholder, and an administrator confirms each deposit by hand.',
          )}
    </div>
  );
}
