import { PorPublic } from '../../features/proof-of-reserves/components/por-public.tsx';
import { t } from '../../lib/i18n.tsx';

/** Public: the proof of reserves anyone can read and check, signed in or not. */
export function Component() {
  return (
    <div className="mx-auto max-w-7xl px-4 py-6">
      <h1 className="mb-4 text-2xl font-bold text-white">{t('Proof of reserves')}</h1>
      <PorPublic />
    </div>
  );
}
