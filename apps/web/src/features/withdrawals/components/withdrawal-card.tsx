import type { Withdrawal } from '@harvest/shared/schemas/withdrawals';
import { STATUS_STYLE, statusLabel } from '../lib/format.ts';
import { dateTime, shortHash, usdc } from '../../../lib/format.ts';

const SOURCE_LABEL = { earning: 'Cycle earning', rewards: 'Referral rewards', balance: 'Balance' } as const;

/** One withdrawal in the investor's history (spec: status, amounts, cycle, tier, wallet, hash, notes, dates). */
export function WithdrawalCard({ w }: { w: Withdrawal }) {
  const label = statusLabel(w.status);
  return (
    <article
      className="rounded-xl border border-slate-200 bg-white p-4 text-sm shadow-sm"
      aria-label={`Withdrawal ${label}`}
    >
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <p className="font-semibold text-slate-900">
          {w.cycleNumber !== null ? `Cycle #${w.cycleNumber}` : SOURCE_LABEL[w.source]}
          {w.investmentId && <span className="font-normal text-slate-500"> · {w.investmentId.tier}</span>}
        </p>
        <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS_STYLE[label]}`}>{label}</span>
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1.5">
        <dt className="text-slate-500">Amount</dt>
        <dd className="text-right font-medium text-slate-900">{usdc(w.amount)}</dd>
        <dt className="text-slate-500">Fee{w.source === 'earning' ? ' (15%)' : ''}</dt>
        {/* Red for a fee actually taken (money going out); a zero fee and a rejected amount stay neutral. */}
        <dd className={`text-right ${w.feeAmount > 0 && label !== 'Rejected' ? 'text-red-700' : 'text-slate-900'}`}>
          {usdc(w.feeAmount)}
        </dd>
        <dt className="text-slate-500">Net</dt>
        <dd className={`text-right font-semibold ${label === 'Rejected' ? 'text-slate-600' : 'text-emerald-700'}`}>
          {usdc(w.netAmount)}
        </dd>
        {w.investmentId && (
          <>
            <dt className="text-slate-500">Tier</dt>
            <dd className="text-right text-slate-900">
              {w.investmentId.tier} ({usdc(w.investmentId.amount)})
            </dd>
          </>
        )}
        <dt className="text-slate-500">Wallet</dt>
        <dd className="text-right font-mono text-xs break-all text-slate-900">{w.walletAddress}</dd>
        {w.txHash && (
          <>
            <dt className="text-slate-500">Tx Hash</dt>
            <dd className="text-right font-mono text-xs text-slate-900" title={w.txHash}>
              {shortHash(w.txHash)}
            </dd>
          </>
        )}
        <dt className="text-slate-500">Requested</dt>
        <dd className="text-right text-slate-900">{dateTime(w.requestedAt)}</dd>
        {w.processedAt && (
          <>
            <dt className="text-slate-500">Processed</dt>
            <dd className="text-right text-slate-900">{dateTime(w.processedAt)}</dd>
          </>
        )}
      </dl>
      {w.notes && <p className="mt-2 rounded-lg bg-slate-50 p-2 text-slate-700">Notes: {w.notes}</p>}
    </article>
  );
}
