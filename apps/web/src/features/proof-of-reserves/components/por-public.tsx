import { useQuery } from '@tanstack/react-query';
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { PorSnapshot } from '@harvest/shared/schemas/proof-of-reserves';
import { Card, StatCard } from '../../../components/ui/card.tsx';
import { ChainValue } from '../../../components/ui/chain-value.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { count, date, dateTime, percent, usdc, usdcTick } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.tsx';
import { historyQuery, latestSnapshotQuery, reservesQuery } from '../api/por.ts';

/**
 * The public proof of reserves (no sign-in): the latest snapshot's figures, the history of snapshots, and every
 * reserve address with whether its signature verifies. Anyone can check all of it with `npx harvest-por`.
 */
export function PorPublic() {
  const latest = useQuery(latestSnapshotQuery());
  return (
    <QueryState
      query={latest}
      what={t('the proof of reserves')}
      lines={4}
      frame={(state) => <Card title={t('Proof of reserves')}>{state}</Card>}
    >
      {(s) => (
        <div className="space-y-4">
          <Figures s={s} />
          <History />
          <Reserves id={s.id} />
        </div>
      )}
    </QueryState>
  );
}

function Figures({ s }: { s: PorSnapshot }) {
  return (
    <section aria-label={t('Latest snapshot')} className="space-y-2">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
        <StatCard label={t('Liabilities')} value={usdc(s.total)} />
        <StatCard label={t('Reserves counted')} value={usdc(s.reserves.counted)} />
        <StatCard
          label={t('Coverage')}
          value={s.coverage === null ? '—' : percent(s.coverage * 100, { min: 1, max: 2 })}
        />
        <StatCard label={t('Investors')} value={count(s.investors)} />
        <StatCard label={t('Block number')} value={s.blockNumber === null ? '—' : count(s.blockNumber)} />
        <StatCard label={t('Taken')} value={dateTime(s.takenAt)} />
      </div>
      <p className="text-sm break-all text-white" data-testid="por-root">
        {t('Root: {root}', { root: s.root })}
      </p>
    </section>
  );
}

function History() {
  const history = useQuery(historyQuery());
  const points = (history.data?.snapshots ?? []).map((h) => ({
    day: date(h.takenAt),
    liabilities: h.total,
    reserves: h.reserves.counted,
  }));
  return (
    <Card title={t('History')}>
      <div className="h-64" role="img" aria-label={t('Liabilities and reserves counted at each snapshot')}>
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={points}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="day" />
            <YAxis tickFormatter={usdcTick} width={90} />
            <Tooltip />
            <Line
              type="monotone"
              dataKey="liabilities"
              name={t('Liabilities')}
              stroke="#6b21a8"
              isAnimationActive={false}
            />
            <Line
              type="monotone"
              dataKey="reserves"
              name={t('Reserves counted')}
              stroke="#047857"
              isAnimationActive={false}
            />
          </LineChart>
        </ResponsiveContainer>
      </div>
    </Card>
  );
}

function Reserves({ id }: { id: string }) {
  const reserves = useQuery(reservesQuery(id));
  return (
    <QueryState
      query={reserves}
      what={t('the reserve addresses')}
      lines={3}
      frame={(state) => <Card title={t('Reserve addresses')}>{state}</Card>}
    >
      {(r) => (
        <Card title={t('Reserve addresses')}>
          {r.reserves.length === 0 ? (
            <p className="text-slate-700">{t('No reserve address was read for this snapshot.')}</p>
          ) : (
            <ul className="divide-y divide-slate-200">
              {r.reserves.map((a) => (
                <li key={a.address} className="flex flex-wrap items-center justify-between gap-2 py-2">
                  <ChainValue kind="address" value={a.address} />
                  <span className="font-semibold text-slate-900">{usdc(a.balance)}</span>
                  <span
                    data-verified={a.verified ? 'yes' : 'no'}
                    className={a.verified ? 'text-emerald-800' : 'text-slate-700'}
                  >
                    {a.verified ? t('Signature verified: counted') : t('No valid signature: listed, not counted')}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Card>
      )}
    </QueryState>
  );
}
