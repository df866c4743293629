import { useState, type ReactNode } from 'react';
import { TEXT } from '@harvest/shared/texts';
import { MAX_LENGTH } from '@harvest/shared/constants';
import { userSearchForm, type AdminReferralLookup } from '@harvest/shared/schemas/admin';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { SearchForm } from '../../../components/ui/search-form.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { useZodForm } from '../../../lib/form.ts';
import { useQuery } from '@tanstack/react-query';
import { userCandidatesQuery, userNetworkQuery } from '../api/referrals.ts';
import { date, referralRate, usdc } from '../../../lib/format.ts';
import { Email } from '../../../components/ui/email.tsx';
import { t } from '../../../lib/i18n.tsx';

/**
 * Look up any user's referral network: search by name or e-mail, pick a user, see the three
 * levels (drawn by `renderTree`, the investor tab's component) and the rewards they produced.
 */
export function ReferralLookup({
  renderTree,
}: {
  renderTree: (data: AdminReferralLookup, onRefresh: () => void, refreshing: boolean) => ReactNode;
}) {
  const form = useZodForm<{ search: string }>(userSearchForm, { defaultValues: { search: '' } });
  const [search, setSearch] = useState('');
  const [userId, setUserId] = useState<string | null>(null);
  const candidates = useQuery(userCandidatesQuery(search));
  const network = useQuery(userNetworkQuery(userId));

  return (
    <div className="space-y-4">
      <Card title={t("Look Up a User's Network")}>
        <SearchForm
          label={t('Search users by name or e-mail')}
          onSubmit={form.handleSubmit((v) => setSearch(v.search.trim()))}
          input={{ placeholder: t('Name or e-mail'), maxLength: MAX_LENGTH.search, ...form.register('search') }}
        />
        {search && (
          <QueryState query={candidates} what={t('users')} fallback={TEXT.usersFailed} lines={2}>
            {(data) => (
              <ul className="mt-3 divide-y divide-slate-200" aria-label={t('Matching users')}>
                {data.users.length === 0 && <li className="py-2 text-sm text-slate-500">{t('No users found.')}</li>}
                {data.users.map((u) => (
                  <li key={u._id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                    <div className="min-w-0">
                      <p className="font-medium [overflow-wrap:anywhere] text-slate-900">
                        {u.firstName} {u.lastName}
                      </p>
                      <p className="text-xs text-slate-500">
                        <Email address={u.email} />
                      </p>
                    </div>
                    <Button
                      variant={userId === u._id ? 'primary' : 'secondary'}
                      aria-pressed={userId === u._id}
                      onClick={() => setUserId(u._id)}
                    >
                      {userId === u._id ? t('Showing') : t('Show network')}
                    </Button>
                  </li>
                ))}
              </ul>
            )}
          </QueryState>
        )}
      </Card>
      {userId && (
        <QueryState
          query={network}
          what={t('the referral network')}
          fallback={TEXT.referralsFailed}
          frame={(state) => <Card>{state}</Card>}
        >
          {(data) => (
            <>
              {renderTree(data, () => void network.refetch(), network.isFetching)}
              {data.tree.totalReferrals > 0 &&
                (data.counts.level1 > data.listLimit ||
                  data.counts.level2 > data.listLimit ||
                  data.counts.level3 > data.listLimit) && (
                  <p className="text-sm text-white">
                    {t('Each level lists its newest {n} members; the counts are exact.', { n: data.listLimit })}
                  </p>
                )}
              <RewardsCard data={data} />
            </>
          )}
        </QueryState>
      )}
    </div>
  );
}

function RewardsCard({ data }: { data: AdminReferralLookup }) {
  const { rewards, user } = data;
  return (
    <Card title={t('Rewards earned by {name}', { name: `${user.firstName} ${user.lastName}` })}>
      <p className="text-2xl font-bold text-emerald-700">{usdc(rewards.total)}</p>
      <dl className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-3">
        {rewards.byLevel.map((l) => (
          <div key={l.level} className="rounded-lg bg-slate-50 p-3">
            <dt className="text-xs text-slate-500">
              {t('Level {n} ({rate})', { n: l.level, rate: referralRate(l.level) })}
            </dt>
            <dd className="font-semibold text-slate-900">
              {usdc(l.amount)}{' '}
              <span className="text-xs font-normal text-slate-500">
                {l.count === 1 ? t('from 1 investment') : t('from {n} investments', { n: l.count })}
              </span>
            </dd>
          </div>
        ))}
      </dl>
      {rewards.recent.length > 0 && (
        <>
          <h3 className="mt-4 text-sm font-semibold text-slate-700">{t('Latest rewards')}</h3>
          <ul className="mt-1 divide-y divide-slate-100 text-sm">
            {rewards.recent.map((r) => (
              <li key={r._id} className="flex flex-wrap justify-between gap-2 py-1">
                <span className="[overflow-wrap:anywhere] text-slate-700">
                  {t('L{level} · {name} invested {amount}', {
                    level: r.level,
                    name: `${r.fromUser.firstName} ${r.fromUser.lastName}`,
                    amount: usdc(r.investmentAmount),
                  })}
                </span>
                <span className="font-medium text-slate-900">
                  {usdc(r.amount)} <span className="text-xs font-normal text-slate-500">{date(r.createdAt)}</span>
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
    </Card>
  );
}
