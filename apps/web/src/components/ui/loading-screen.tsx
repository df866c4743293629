import { t } from '../../lib/i18n.tsx';
/** While the session is restored or a screen's code loads (spec section 2: a Loading screen). */
export function LoadingScreen() {
  return (
    <div role="status" className="flex min-h-[50vh] items-center justify-center text-xl font-semibold text-white">
      {t('Loading...')}
    </div>
  );
}
