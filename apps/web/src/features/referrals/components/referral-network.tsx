import type { ReactNode } from 'react';
import type { ReferralTree } from '@harvest/shared/schemas/referrals';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { date, referralRate } from '../../../lib/format.ts';
import { Email } from '../../../components/ui/email.tsx';
import { rich, t } from '../../../lib/i18n.tsx';

type Entry = ReferralTree['level1'][number];

/**
 * Referral Network (spec section 2): total count, refresh, and the three levels with their
 * reward rates. Presentational: the admin back office reuses it for any user's tree.
 * `emptyAction` is shown in the empty state (e.g. a button that opens the invitation dialog).
 */
export function ReferralNetwork({
  tree,
  onRefresh,
  refreshing = false,
  emptyAction,
  title,
  owner,
}: {
  tree: ReferralTree;
  onRefresh?: () => void;
  refreshing?: boolean;
  emptyAction?: ReactNode;
  title?: ReactNode;
  /** Whose network this is, when it is not the signed-in person's: names its levels apart from theirs on one page. */
  owner?: string;
}) {
  const levels: { label: string; entries: Entry[]; count: number }[] = [
    {
      label: t('Level {n} ({rate})', { n: 1, rate: referralRate(1) }),
      entries: tree.level1,
      count: tree.level1Count ?? tree.level1.length,
    },
    {
      label: t('Level {n} ({rate})', { n: 2, rate: referralRate(2) }),
      entries: tree.level2,
      count: tree.level2Count ?? tree.level2.length,
    },
    {
      label: t('Level {n} ({rate})', { n: 3, rate: referralRate(3) }),
      entries: tree.level3,
      count: tree.level3Count ?? tree.level3.length,
    },
  ];
  return (
    <Card
      title={title ?? t('Referral Network')}
      actions={
        onRefresh && (
          <Button variant="secondary" onClick={onRefresh} disabled={refreshing}>
            {refreshing ? t('Refreshing...') : t('Refresh')}
          </Button>
        )
      }
    >
      <p className="mb-4 text-slate-700">
        {rich(t('Total referrals: <0>{n}</0>', { n: tree.totalReferrals }), [
          (text) => <strong className="text-xl text-purple-800">{text}</strong>,
        ])}
      </p>
      {tree.totalReferrals === 0 ? (
        <div className="rounded-xl border border-dashed border-purple-300 bg-purple-50 p-6 text-center">
          <p className="font-semibold text-purple-900">{t('No referrals yet')}</p>
          <p className="mt-1 text-sm text-slate-600">
            {t(
              'Share your invitation code with friends: you earn 10% of their investments, 3% from the people they invite, and 1% one level further.',
            )}
          </p>
          {emptyAction && <div className="mt-4 flex justify-center">{emptyAction}</div>}
        </div>
      ) : (
        <div className="grid gap-4 lg:grid-cols-3">
          {levels.map((l) => (
            <ReferralLevel
              key={l.label}
              label={l.label}
              name={owner ? t('{level} of {owner}', { level: l.label, owner }) : l.label}
              entries={l.entries}
              count={l.count}
            />
          ))}
        </div>
      )}
    </Card>
  );
}

export function ReferralLevel({
  label,
  name = label,
  entries,
  count,
}: {
  label: string;
  /** The region's accessible name: unique on the page (landmark-unique), the label plus whose network. */
  name?: string;
  entries: Entry[];
  count: number;
}) {
  return (
    <section aria-label={name} className="rounded-xl border border-slate-200 p-3">
      <h3 className="mb-2 flex items-center justify-between font-semibold text-slate-900">
        {label}
        <span className="rounded-full bg-purple-100 px-2 py-0.5 text-xs text-purple-800">{count}</span>
      </h3>
      {entries.length === 0 ? (
        <p className="text-sm text-slate-500">{t('No referrals on this level yet.')}</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {entries.map((e) => (
            <li key={e._id} className="py-2 text-sm">
              <p className="font-medium text-slate-900">
                {e.firstName} {e.lastName}
              </p>
              <p className="text-slate-600">
                <Email address={e.email} />
              </p>
              <p className="text-xs text-slate-500">{t('Joined {date}', { date: date(e.createdAt) })}</p>
            </li>
          ))}
          {count > entries.length && (
            <li className="py-2 text-xs text-slate-500">
              {t('Showing the newest {shown} of {count}.', { shown: entries.length, count })}
            </li>
          )}
        </ul>
      )}
    </section>
  );
}
