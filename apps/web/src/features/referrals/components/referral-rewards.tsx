import type { ReferralsResponse } from '@harvest/shared/schemas/referrals';
import { Card } from '../../../components/ui/card.tsx';

const exact = (v: number) => v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 6 });

/** The rewards the user's network produced (GET /user/referrals). Presentational, reusable by admin views. */
export function ReferralRewards({ data }: { data: ReferralsResponse }) {
  return (
    <Card title="Referral Rewards">
      <p className="mb-3 text-slate-700">
        Total rewards: <strong className="text-emerald-700">{exact(data.totalRewards)} USDC</strong>
      </p>
      {data.referrals.length === 0 ? (
        <p className="text-sm text-slate-500">
          No rewards yet. You receive a reward when someone in your network invests.
        </p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {data.referrals.map((r) => (
            <li key={r._id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
              <div>
                <p className="font-medium text-slate-900">
                  {r.fromUser.firstName} {r.fromUser.lastName}{' '}
                  <span className="text-xs text-slate-500">(Level {r.level})</span>
                </p>
                <p className="text-xs text-slate-500">
                  Invested {exact(r.investmentAmount)} USDC ·{' '}
                  {new Date(r.createdAt).toLocaleDateString('en-US', {
                    year: 'numeric',
                    month: 'short',
                    day: 'numeric',
                  })}
                </p>
              </div>
              <span className="font-semibold text-emerald-700">+{exact(r.amount)} USDC</span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
