import { POLL_DEPOSITS_MS, RECENT_DEPOSITS } from '@harvest/shared/constants';
import type { Deposit } from '@harvest/shared/schemas/deposits';
import { STATUS_LABEL, STATUS_STYLE, TYPE_LABEL, cutHash, dateTime, usdcText } from '../lib/format.ts';
import { useQuery } from '@tanstack/react-query';
import { depositHistoryQuery } from '../../../lib/query-keys.ts';

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
  const recent = (history.data?.deposits ?? []).slice(0, RECENT_DEPOSITS);
  if (history.isPending) return <p className="text-sm text-slate-500">Loading deposits...</p>;
  if (recent.length === 0) return <p className="text-sm text-slate-500">No deposits yet.</p>;
  return (
    <ul className="divide-y divide-slate-200" aria-label="Recent deposits">
      {recent.map((d) => (
        <DepositRow key={d._id} deposit={d} />
      ))}
    </ul>
  );
}

function DepositRow({ deposit: d }: { deposit: Deposit }) {
  return (
    <li className="py-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="font-semibold text-slate-900">{usdcText(d.amount)}</span>
        <div className="flex items-center gap-2">
          <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700">
            {TYPE_LABEL[d.type]}
          </span>
          <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_STYLE[d.status]}`}>
            {STATUS_LABEL[d.status]}
          </span>
        </div>
      </div>
      <div className="mt-1 flex flex-wrap justify-between gap-2 text-xs text-slate-500">
        <span className="font-mono" title={d.txHash ?? undefined}>
          {cutHash(d.txHash)}
        </span>
        <span>{dateTime(d.createdAt)}</span>
      </div>
      {d.status === 'pending' && d.type === 'real' && d.requiredConfirmations > 0 && (
        <Confirmations n={d.confirmations} required={d.requiredConfirmations} />
      )}
      {d.status === 'failed' && d.failureReason && <p className="mt-1 text-xs text-rose-700">{d.failureReason}</p>}
    </li>
  );
}

function Confirmations({ n, required }: { n: number; required: number }) {
  const shown = Math.min(n, required);
  const label = `Confirmations ${shown} of ${required}`;
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
