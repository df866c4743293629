import { msg } from '@harvest/shared/i18n';
import type { Withdrawal } from '@harvest/shared/schemas/withdrawals';
import { STATUS_STYLE, statusLabel } from '../lib/format.ts';
import { dateTime, tierWithAmount, usdc } from '../../../lib/format.ts';
import { t, known } from '../../../lib/i18n.tsx';
import { ChainValue } from '../../../components/ui/chain-value.tsx';

const SOURCE_LABEL = {
  earning: msg('Cycle earning'),
  rewards: msg('Referral rewards'),
  balance: msg('Balance'),
} as const;

/** One withdrawal in the investor's history (spec: status, amounts, cycle, tier, wallet, hash, notes, dates). */
export function WithdrawalCard({ w }: { w: Withdrawal }) {
  const label = statusLabel(w.status);
  return (
    <article
      className="rounded-xl border border-slate-200 bg-white p-4 text-sm shadow-sm"
      aria-label={t('Withdrawal {status}', { status: t(label) })}
    >
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <p className="font-semibold text-slate-900">
          {w.cycleNumber !== null ? t('Cycle #{n}', { n: w.cycleNumber }) : t(SOURCE_LABEL[w.source])}
          {w.investmentId && <span className="font-normal text-slate-500"> · {w.investmentId.tier}</span>}
        </p>
        <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS_STYLE[label]}`}>{t(label)}</span>
      </div>
      {/* The labels take what they need, the values the rest: a seven-figure net fits a phone's card. */}
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1.5">
        <dt className="text-slate-500">{t('Amount')}</dt>
        <dd className="text-end font-medium text-slate-900">{usdc(w.amount)}</dd>
        <dt className="text-slate-500">{w.source === 'earning' ? t('Fee (15%)') : t('Fee')}</dt>
        {/* Red for a fee actually taken (money going out); a zero fee and a rejected amount stay neutral. */}
        <dd className={`text-end ${w.feeAmount > 0 && label !== 'Rejected' ? 'text-red-700' : 'text-slate-900'}`}>
          {usdc(w.feeAmount)}
        </dd>
        <dt className="text-slate-500">{t('Net')}</dt>
        <dd className={`text-end font-semibold ${label === 'Rejected' ? 'text-slate-600' : 'text-emerald-700'}`}>
          {usdc(w.netAmount)}
        </dd>
        {w.investmentId && (
          <>
            <dt className="text-slate-500">{t('Tier')}</dt>
            <dd className="text-end text-slate-900">{tierWithAmount(w.investmentId.tier, w.investmentId.amount)}</dd>
          </>
        )}
        <dt className="text-slate-500">{t('Wallet')}</dt>
        <dd className="text-end text-xs text-slate-900">
          <ChainValue kind="address" value={w.walletAddress} className="justify-end" />
        </dd>
        {w.txHash && (
          <>
            <dt className="text-slate-500">{t('Tx Hash')}</dt>
            <dd className="text-end text-xs text-slate-900">
              <ChainValue kind="tx" value={w.txHash} className="justify-end" />
            </dd>
          </>
        )}
        <dt className="text-slate-500">{t('Requested')}</dt>
        <dd className="text-end text-slate-900">{dateTime(w.requestedAt)}</dd>
        {w.processedAt && (
          <>
            <dt className="text-slate-500">{t('Processed')}</dt>
            <dd className="text-end text-slate-900">{dateTime(w.processedAt)}</dd>
          </>
        )}
      </dl>
      {w.status === 'pending' && w.payeeRefused && (
        <p className="mt-2 rounded-lg bg-orange-50 p-2 text-orange-900">
          {t(
            'USDC refuses transfers to this address: it cannot be paid there. We will return the money to your account; then withdraw again to another address.',
          )}
        </p>
      )}
      {/* A note the platform wrote (a catalogue text) reads in the investor's language; typed notes stay as typed. */}
      {w.notes && (
        <p className="mt-2 rounded-lg bg-slate-50 p-2 text-slate-700">
          {t('Notes: {notes}', { notes: known(w.notes) })}
        </p>
      )}
    </article>
  );
}
