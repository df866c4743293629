import { msg } from '@harvest/shared/i18n';
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Difference, Reconciliation, Solvency } from '@harvest/shared/schemas/solvency';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { fetchFile, save } from '../../../lib/download.ts';
import { count, dateTime, percent, shortHash, usdc } from '../../../lib/format.ts';
import { duration } from '../../../lib/server-text.ts';
import { toast } from '../../../lib/toast.ts';
import { solvencyQuery, useAcknowledgeAlarm, useReconcile, useRefreshSolvency } from '../api/solvency.ts';
import { rich, t } from '../../../lib/i18n.tsx';
import { ChainValue } from '../../../components/ui/chain-value.tsx';
import { useCan } from '../../../lib/auth.tsx';

/** A watcher that has not read the chain for this long has stopped finding deposits: say so. */
const WATCHER_STALE_MS = 10 * 60_000;

/**
 * What the platform owes against what its addresses hold on chain (red below 100 %), what left them unexplained, and
 * whether money in and out still agrees with the chain: the deposit watcher's last read, the last reconciliation,
 * open alarms.
 */
export function SolvencyPanel() {
  const q = useQuery(solvencyQuery());
  const refresh = useRefreshSolvency();
  const money = useCan('money');

  async function onRefresh() {
    try {
      await refresh.mutateAsync();
      toast.success(t('Balances read from the chain'));
    } catch (err) {
      toast.error(errorText(err, t('The balances could not be read')));
    }
  }

  return (
    <Card
      title={t('Solvency')}
      actions={
        money && (
          <Button variant="secondary" onClick={onRefresh} disabled={refresh.isPending}>
            {refresh.isPending ? t('Reading...') : t('Refresh now')}
          </Button>
        )
      }
    >
      <QueryState query={q} what={t('solvency')} fallback={t('Solvency could not be loaded.')} lines={4}>
        {(s) => (
          <div className="space-y-4 text-sm" data-testid="solvency">
            <Coverage s={s} />
            <Outflow s={s} />
            {s.watcher && <WatcherLine watcher={s.watcher} />}
            <SweepLine s={s} />
            <ReconciliationSection run={s.reconciliation} />
            {s.alarms.length > 0 && <Alarms alarms={s.alarms} />}
          </div>
        )}
      </QueryState>
    </Card>
  );
}

function Coverage({ s }: { s: Solvency }) {
  // Until the balances have been read there is no coverage to alarm about, only "not read yet".
  const covered = s.coverage === null || s.coverage >= 1;
  return (
    <div className="space-y-2">
      <p
        className={`text-2xl font-bold ${!s.asOf ? 'text-slate-700' : covered ? 'text-emerald-700' : 'text-rose-700'}`}
        data-testid="solvency-coverage"
        data-covered={covered ? 'yes' : 'no'}
      >
        {!s.asOf
          ? t('Coverage not known yet')
          : s.coverage === null
            ? t('Nothing owed')
            : t('{percent} covered', { percent: percent(s.coverage * 100, { min: 1, max: 1 }) })}
      </p>
      <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-slate-700">
        <dt>{t('Owed to investors')}</dt>
        <dd className="text-end font-medium whitespace-nowrap">{usdc(s.liabilities)}</dd>
        <dt>{t('On deposit addresses')}</dt>
        <dd className="text-end font-medium whitespace-nowrap">{s.asOf ? usdc(s.assets.depositAddresses) : '—'}</dd>
        <dt>{t('On the payout address')}</dt>
        <dd className="text-end font-medium whitespace-nowrap">{s.asOf ? usdc(s.assets.payoutAddress) : '—'}</dd>
        <dt>{t('In the treasury')}</dt>
        <dd className="text-end font-medium whitespace-nowrap">{s.asOf ? usdc(s.assets.treasury) : '—'}</dd>
      </dl>
      <ReadingAge s={s} />
    </div>
  );
}

/** When the balances were read and how long ago (the server's clock): past its limit, stale, in red. */
function ReadingAge({ s }: { s: Solvency }) {
  if (!s.asOf || !s.readingAge)
    return (
      <p className="text-xs text-slate-600" data-testid="solvency-readings">
        {t('On-chain balances not read yet: the blockchain node has not answered since the server started.')}
      </p>
    );
  const values = {
    date: dateTime(s.asOf),
    age: duration(s.readingAge.seconds * 1000),
    limit: duration(s.readingAge.staleAfterSeconds * 1000),
  };
  return s.readingAge.stale ? (
    <p className="text-sm font-medium text-rose-700" data-testid="solvency-readings" data-stale="yes">
      {t(
        'Stale: the on-chain balances were read {age} ago ({date}), more than {limit} ago. The coverage may not be what the chain holds now.',
        values,
      )}
    </p>
  ) : (
    <p className="text-xs text-slate-600" data-testid="solvency-readings" data-stale="no">
      {t('On-chain balances read {date} ({age} ago)', values)}
    </p>
  );
}

/** USDC that left the platform's addresses without the books releasing it: a loss, already out of the assets. */
function Outflow({ s }: { s: Solvency }) {
  const outflow = s.unexplainedOutflow;
  const rows = [
    {
      label: t('From the payout wallet'),
      why: t('Left the payout wallet with no withdrawal to account for it'),
      amount: outflow.payoutWallet,
    },
    {
      label: t('From deposit addresses'),
      why: t("Left investors' deposit addresses for somewhere other than the treasury"),
      amount: outflow.depositAddresses,
    },
  ];
  return (
    <section aria-labelledby="outflow-title" className="space-y-2 border-t border-slate-200 pt-3">
      <h3 id="outflow-title" className="font-semibold text-slate-900">
        {t('Unexplained outflow')}
      </h3>
      <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-slate-700" data-testid="solvency-outflow">
        {rows.map((r) => (
          <div key={r.label} className="contents">
            <dt>
              {r.label}
              <span className="block text-xs text-slate-600">{r.why}</span>
            </dt>
            <dd
              className={`text-end whitespace-nowrap ${r.amount > 0 ? 'font-bold text-rose-700' : 'font-medium'}`}
              data-loss={r.amount > 0 ? 'yes' : 'no'}
            >
              {/* A loss always shows; a zero only once the chain was read, like the balances above. */}
              {s.asOf || r.amount > 0 ? usdc(r.amount) : '—'}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function WatcherLine({ watcher }: { watcher: NonNullable<Solvency['watcher']> }) {
  const stale = !watcher.checkedAt || Date.now() - new Date(watcher.checkedAt).getTime() > WATCHER_STALE_MS;
  return (
    <p className={stale ? 'font-medium text-rose-700' : 'text-slate-700'} data-testid="solvency-watcher">
      {watcher.checkedAt
        ? t(
            stale
              ? 'Deposits are not being found: the watcher last read the chain {date} (head {head}, credited through block {block}).'
              : 'Deposit watcher read the chain {date} (head {head}, credited through block {block}).',
            {
              date: dateTime(watcher.checkedAt),
              head: count(watcher.headBlock ?? 0),
              block: count(watcher.cursorBlock),
            },
          )
        : t('Deposits are not being found: the watcher has not read the chain yet.')}
    </p>
  );
}

/** The last sweep of the deposit addresses into the treasury, and the plan the offline signer takes (decision 0072). */
function SweepLine({ s }: { s: Solvency }) {
  const [busy, setBusy] = useState(false);
  const money = useCan('money');
  async function onDownload() {
    setBusy(true);
    try {
      const file = await fetchFile('/admin/solvency/sweep-plan', 'sweep-plan.json', 'application/json');
      save(file);
      toast.success(t('Downloaded {name}: sign it offline with npm run sweep:sign', { name: file.name }));
    } catch (err) {
      toast.error(errorText(err, t('The sweep plan could not be read')));
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 border-t border-slate-200 pt-3">
      <p className="text-slate-700" data-testid="solvency-sweep">
        {s.lastSweep
          ? t(
              s.lastSweep.addresses === 1
                ? 'Last sweep: 1 deposit address, {total} to the treasury (read {date}).'
                : 'Last sweep: {n} deposit addresses, {total} to the treasury (read {date}).',
              { n: count(s.lastSweep.addresses), total: usdc(s.lastSweep.total), date: dateTime(s.lastSweep.at) },
            )
          : t('No sweep of the deposit addresses yet.')}
      </p>
      {money && (
        <Button variant="secondary" onClick={onDownload} disabled={busy}>
          {busy ? t('Reading...') : t('Download sweep plan')}
        </Button>
      )}
    </div>
  );
}

const KIND_LABEL: Record<Difference['kind'], string> = {
  unbacked: msg('Credited without a transfer'),
  differs: msg('Differs from the chain'),
  too_shallow: msg('Credited too early'),
  missed: msg('Transfer not credited'),
  unpaid: msg('Payout not on the chain'),
  unmatched_payout: msg('Payout no withdrawal accounts for'),
  paid_after_rejection: msg('Paid after its withdrawal was rejected'),
  overpaid: msg('Paid more than approved'),
  sweep_elsewhere: msg('Left a deposit address, not for the treasury'),
};
/** Differences about money out: their booked amount was approved for a withdrawal, not credited. */
const APPROVED_KINDS: ReadonlySet<Difference['kind']> = new Set(['unpaid', 'overpaid']);

function ReconciliationSection({ run }: { run: Reconciliation | null }) {
  const reconcile = useReconcile();
  const money = useCan('money');
  async function onReconcile() {
    try {
      toast.success((await reconcile.mutateAsync()).message);
    } catch (err) {
      toast.error(errorText(err, t('The reconciliation could not start')));
    }
  }
  const running = run?.status === 'running';
  return (
    <section aria-labelledby="reconciliation-title" className="space-y-2 border-t border-slate-200 pt-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="reconciliation-title" className="font-semibold text-slate-900">
          {t('Reconciliation against the chain')}
        </h3>
        {money && (
          <Button variant="secondary" onClick={onReconcile} disabled={reconcile.isPending || running}>
            {running ? t('Reconciling...') : t('Reconcile now')}
          </Button>
        )}
      </div>
      <p
        data-testid="reconciliation-status"
        className={
          run?.status === 'differences' || run?.status === 'failed' ? 'font-medium text-rose-700' : 'text-slate-700'
        }
      >
        {reconciliationText(run)}
      </p>
      {run && run.differences.length > 0 && (
        <ul className="space-y-2">
          {run.differences.map((d, i) => (
            <li key={`${d.txHash}-${d.logIndex}-${i}`} className="rounded-lg bg-rose-50 p-2 text-rose-900">
              <p className="font-medium">{t(KIND_LABEL[d.kind])}</p>
              {(d.creditedAmount !== null || d.chainAmount !== null) && (
                <p>
                  {d.creditedAmount !== null && (
                    <span className="whitespace-nowrap">
                      {APPROVED_KINDS.has(d.kind)
                        ? t('Approved {amount}', { amount: usdc(d.creditedAmount) })
                        : t('Credited {amount}', { amount: usdc(d.creditedAmount) })}
                    </span>
                  )}
                  {d.creditedAmount !== null && d.chainAmount !== null && ' · '}
                  {d.chainAmount !== null && (
                    <span className="whitespace-nowrap">{t('On chain {amount}', { amount: usdc(d.chainAmount) })}</span>
                  )}
                </p>
              )}
              <p className="[overflow-wrap:anywhere]">{d.detail}</p>
              <p className="text-xs [overflow-wrap:anywhere]">
                {d.address && (
                  <>
                    {rich(t('Address <0>{address}</0>', { address: d.address }), [
                      () => <ChainValue kind="address" value={d.address ?? ''} />,
                    ])}
                  </>
                )}
                {d.txHash && (
                  <>
                    {' · '}
                    {rich(t('Transaction <0>{hash}</0>', { hash: shortHash(d.txHash) }), [
                      () => <ChainValue kind="tx" value={d.txHash ?? ''} />,
                    ])}
                  </>
                )}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function reconciliationText(run: Reconciliation | null): string {
  if (!run) return t('Not run yet: it runs once a day, or now with Reconcile now.');
  if (run.status === 'running') return t('Running since {date}...', { date: dateTime(run.startedAt) });
  const when = dateTime(run.finishedAt ?? run.startedAt);
  if (run.status === 'failed')
    return t('Could not read the chain ({when}): {error}', { when, error: run.error ?? t('unknown error') });
  const { deposits, transfers, payouts } = run.checked;
  const scope = t('{deposits}, {transfers} and {payouts} through block {block}', {
    deposits: deposits === 1 ? t('1 credited deposit') : t('{n} credited deposits', { n: count(deposits) }),
    transfers: transfers === 1 ? t('1 transfer') : t('{n} transfers', { n: count(transfers) }),
    payouts: payouts === 1 ? t('1 transfer out') : t('{n} transfers out', { n: count(payouts) }),
    block: count(run.throughBlock ?? 0),
  });
  return run.status === 'clean'
    ? t('Clean: money in and out matches the chain ({scope}, {when}).', { scope, when })
    : run.differenceCount === 1
      ? t('1 difference with the chain ({scope}, {when}). npm run chain:reconcile prints them all.', { scope, when })
      : t('{n} differences with the chain ({scope}, {when}). npm run chain:reconcile prints them all.', {
          n: count(run.differenceCount),
          scope,
          when,
        });
}

function Alarms({ alarms }: { alarms: Solvency['alarms'] }) {
  const ack = useAcknowledgeAlarm();
  const money = useCan('money');
  async function onAck(id: string) {
    try {
      toast.success((await ack.mutateAsync(id)).message);
    } catch (err) {
      toast.error(errorText(err, t('The alarm could not be acknowledged')));
    }
  }
  return (
    <section aria-labelledby="chain-alarms-title" className="space-y-2 border-t border-slate-200 pt-3">
      <h3 id="chain-alarms-title" className="font-semibold text-rose-800">
        {t('Chain alarms')}
      </h3>
      <ul className="space-y-2">
        {alarms.map((a) => (
          <li
            key={a._id}
            className="flex flex-col gap-2 rounded-lg bg-rose-50 p-2 text-rose-900 sm:flex-row sm:items-start sm:justify-between"
          >
            <p className="min-w-0 flex-1 [overflow-wrap:anywhere]">
              <span className="font-medium">{dateTime(a.createdAt)}:</span> {a.detail}
            </p>
            {money && (
              <Button
                variant="danger"
                className="self-end sm:self-start"
                onClick={() => onAck(a._id)}
                disabled={ack.isPending}
                aria-label={t('Acknowledge alarm: {detail}', { detail: a.detail })}
              >
                {t('Acknowledge')}
              </Button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
