import { usdc } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.tsx';

/**
 * Withdrawal Summary, under its heading (the spec names the section): available and pending from the account summary; completed and fees from the history.
 * One emphasised figure (Available, what Withdraw All sends); the other three are smaller, side by side.
 */
export function WithdrawalSummary({
  available,
  pending,
  completed,
  fees,
}: {
  available: number;
  pending: number;
  completed: number;
  fees: number;
}) {
  return (
    <section aria-labelledby="withdrawal-summary">
      <h3 id="withdrawal-summary" className="mb-2 text-base font-semibold text-slate-900">
        {t('Withdrawal Summary')}
      </h3>
      <dl className="grid grid-cols-1 gap-2 sm:grid-cols-4 sm:gap-3">
        <div className="min-w-0 rounded-xl bg-purple-50 p-3">
          <dt className="text-sm font-medium text-slate-700">{t('Available')}</dt>
          <dd className="text-xl font-bold [overflow-wrap:anywhere] text-purple-800 sm:text-2xl">{usdc(available)}</dd>
        </div>
        <Figure label={t('Pending')} value={usdc(pending)} />
        <Figure label={t('Completed')} value={usdc(completed)} />
        {/* Red only when fees were actually paid: money going out. */}
        <Figure label={t('Fees Paid')} value={usdc(fees)} className={fees > 0 ? 'text-red-700' : 'text-slate-900'} />
      </dl>
    </section>
  );
}

function Figure({ label, value, className = 'text-slate-900' }: { label: string; value: string; className?: string }) {
  return (
    <div className="flex min-w-0 items-baseline justify-between gap-2 rounded-xl bg-slate-50 px-3 py-2 sm:block sm:p-3">
      <dt className="text-sm font-medium text-slate-700">{label}</dt>
      <dd className={`font-semibold sm:text-lg ${className}`}>{value}</dd>
    </div>
  );
}
