import type { ReferralsResponse } from '@harvest/shared/schemas/referrals';
import { Card } from '../../../components/ui/card.tsx';
import { date, usdc } from '../../../lib/format.ts';
import { rich, t } from '../../../lib/i18n.tsx';

/** The rewards the user's network produced (GET /user/referrals). Presentational, reusable by admin views. */
export function ReferralRewards({ data }: { data: ReferralsResponse }) {
  return (
    <Card title={t('Referral Rewards')}>
      <p className="mb-3 text-slate-700">
        {rich(t('Total rewards: <0>{amount}</0>', { amount: usdc(data.totalRewards) }), [
          (text) => <strong className="text-emerald-700">{text}</strong>,
        ])}
      </p>
      {data.referrals.length === 0 ? (
        <p className="text-sm text-slate-500">
          {t('No rewards yet. You receive a reward when someone in your network invests.')}
        </p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {data.referrals.map((r) => (
            <li key={r._id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
              <div>
                <p className="font-medium text-slate-900">
                  {r.fromUser.firstName} {r.fromUser.lastName}{' '}
                  <span className="text-xs text-slate-500">{t('(Level {n})', { n: r.level })}</span>
                </p>
                <p className="text-xs text-slate-500">
                  {t('Invested {amount}', { amount: usdc(r.investmentAmount) })} · {date(r.createdAt)}
                </p>
              </div>
              <span className="font-semibold text-emerald-700">+{usdc(r.amount)}</span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
