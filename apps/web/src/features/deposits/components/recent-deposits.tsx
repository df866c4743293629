import { POLL_DEPOSITS_MS, RECENT_DEPOSITS } from '@harvest/shared/constants';
import type { Deposit } from '@harvest/shared/schemas/deposits';
import { STATUS_LABEL, STATUS_STYLE, TYPE_LABEL } from '../lib/format.ts';
import { useEffect, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { depositHistoryQuery } from '../api/deposit-history.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { dateTime, usdc } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.tsx';
import { StoredText } from '../../../components/ui/stored-text.tsx';
import { ChainValue } from '../../../components/ui/chain-value.tsx';

/** Refresh while a chain deposit is pending. */
const LIVE_MS = 3_000;

/** The 5 most recent deposits with status and type, refreshed every 30 s (spec sections 2, 7, 9). */
export function RecentDeposits() {
  const history = useQuery({
    ...depositHistoryQuery(POLL_DEPOSITS_MS),
    // A deposit on its way (pending on chain): follow its confirmations closely.
    refetchInterval: (q) =>
      q.state.data?.deposits.some((d) => d.status === 'pending' && d.type === 'real') ? LIVE_MS : POLL_DEPOSITS_MS,
  });
  // A deposit seen pending that is no longer: the balance (and the failed list) changed with it.
  const qc = useQueryClient();
  const pending = useRef<Set<string>>(new Set());
  useEffect(() => {
    const deposits = history.data?.deposits;
    if (!deposits) return;
    const now = new Set(deposits.filter((d) => d.status === 'pending').map((d) => d._id));
    const settled = [...pending.current].some((id) => !now.has(id));
    pending.current = now;
    if (settled) {
      void qc.invalidateQueries({ queryKey: queryKeys.dashboard });
      void qc.invalidateQueries({ queryKey: queryKeys.deposits.failed });
    }
  }, [history.data, qc]);
  return (
    <QueryState query={history} what={t('your deposits')}>
      {(data) =>
        data.deposits.length === 0 ? (
          <p className="text-sm text-slate-700">
            {t('No deposits yet. Your first deposit appears here once you submit it.')}
          </p>
        ) : (
          <ul className="divide-y divide-slate-200" aria-label={t('Recent deposits')}>
            {data.deposits.slice(0, RECENT_DEPOSITS).map((d) => (
              <DepositRow key={d._id} deposit={d} />
            ))}
          </ul>
        )
      }
    </QueryState>
  );
}

function DepositRow({ deposit: d }: { deposit: Deposit }) {
  return (
    <li className="py-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="font-semibold text-slate-900">{usdc(d.amount)}</span>
        <div className="flex items-center gap-2">
          <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700">
            {t(TYPE_LABEL[d.type])}
          </span>
          <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_STYLE[d.status]}`}>
            {t(STATUS_LABEL[d.status])}
          </span>
        </div>
      </div>
      <div className="mt-1 flex flex-wrap justify-between gap-2 text-xs text-slate-600">
        {d.txHash ? <ChainValue kind="tx" value={d.txHash} /> : <span>—</span>}
        <span>{dateTime(d.createdAt)}</span>
      </div>
      {d.status === 'pending' && d.type === 'real' && d.requiredConfirmations > 0 && (
        <Confirmations n={d.confirmations} required={d.requiredConfirmations} />
      )}
      {d.status === 'failed' && d.failureReason && (
        <p className="mt-1 text-xs text-rose-700">
          <StoredText text={d.failureReason} said={d.failureSaid} />
        </p>
      )}
    </li>
  );
}

function Confirmations({ n, required }: { n: number; required: number }) {
  const shown = Math.min(n, required);
  const label = t('Confirmations {shown} of {required}', { shown, required });
  return (
    <div className="mt-2">
      <div className="mb-1 text-xs font-medium text-slate-600">{label}</div>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={required}
        aria-valuenow={shown}
        className="h-2 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <div
          className="h-full rounded-full bg-purple-600 transition-all"
          style={{ width: `${(shown / required) * 100}%` }}
        />
      </div>
    </div>
  );
}
