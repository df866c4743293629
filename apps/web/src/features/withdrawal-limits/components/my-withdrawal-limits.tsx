import { useQuery } from '@tanstack/react-query';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { dateTime, usdc } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.tsx';
import { myWithdrawalLimitsQuery } from '../api/withdrawal-limits.ts';

/** Profile: the investor's withdrawal limits with what their withdrawals use of each, and any hold. */
export function MyWithdrawalLimits() {
  const q = useQuery(myWithdrawalLimitsQuery());
  return (
    <section aria-labelledby="limits-title" className="space-y-2 rounded-lg border border-slate-200 p-3 text-sm">
      <h3 id="limits-title" className="font-semibold text-slate-800">
        {t('Withdrawal limits')}
      </h3>
      <QueryState query={q} what={t('withdrawal limits')}>
        {(data) => (
          <>
            {data.hold && (
              <p role="status" className="rounded-lg bg-amber-50 p-3 text-amber-900">
                {t(
                  'Withdrawals are on hold until {at} after a security change on your account (see Security activity).',
                  { at: dateTime(data.hold.until) },
                )}
              </p>
            )}
            {!data.day && !data.month ? (
              <p className="text-slate-600">{t('No withdrawal limits apply to your account.')}</p>
            ) : (
              <dl className="space-y-1">
                {data.day && (
                  <div className="flex flex-wrap justify-between gap-x-3">
                    <dt className="text-slate-600">{t('Per 24 hours')}</dt>
                    <dd className="text-slate-900">
                      {t('{used} used of {limit}', { used: usdc(data.day.used), limit: usdc(data.day.limit) })}
                    </dd>
                  </div>
                )}
                {data.month && (
                  <div className="flex flex-wrap justify-between gap-x-3">
                    <dt className="text-slate-600">{t('Per 30 days')}</dt>
                    <dd className="text-slate-900">
                      {t('{used} used of {limit}', { used: usdc(data.month.used), limit: usdc(data.month.limit) })}
                    </dd>
                  </div>
                )}
              </dl>
            )}
            <p className="text-xs text-slate-500">
              {t(
                'Withdrawals are held for {hours} hours after a password change, turning the authenticator off, an e-mail change, or an address-book change after a sign-in from a new device.',
                { hours: data.holdHours },
              )}
            </p>
          </>
        )}
      </QueryState>
    </section>
  );
}
