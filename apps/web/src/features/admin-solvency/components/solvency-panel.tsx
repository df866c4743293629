import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Difference, Reconciliation, Solvency } from '@harvest/shared/schemas/solvency';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { fetchFile, save } from '../../../lib/download.ts';
import { count, dateTime, shortHash, usdc } from '../../../lib/format.ts';
import { toast } from '../../../lib/toast.ts';
import { solvencyQuery, useAcknowledgeAlarm, useReconcile, useRefreshSolvency } from '../api/solvency.ts';

/** A watcher that has not read the chain for this long has stopped finding deposits: say so. */
const WATCHER_STALE_MS = 10 * 60_000;

/**
 * What the platform owes against what its addresses hold on chain (red below 100 %), and whether money in
 * still agrees with the chain: the deposit watcher's last read, the last reconciliation, open alarms.
 */
export function SolvencyPanel() {
  const q = useQuery(solvencyQuery());
  const refresh = useRefreshSolvency();
  const s = q.data;

  async function onRefresh() {
    try {
      await refresh.mutateAsync();
      toast.success('Balances read from the chain');
    } catch (err) {
      toast.error(errorText(err, 'The balances could not be read'));
    }
  }

  return (
    <Card
      title="Solvency"
      actions={
        <Button variant="secondary" onClick={onRefresh} disabled={refresh.isPending}>
          {refresh.isPending ? 'Reading...' : 'Refresh now'}
        </Button>
      }
    >
      {!s ? (
        <p className="text-sm text-slate-600">{q.isError ? 'Solvency could not be loaded.' : 'Loading...'}</p>
      ) : (
        <div className="space-y-4 text-sm" data-testid="solvency">
          <Coverage s={s} />
          {s.watcher && <WatcherLine watcher={s.watcher} />}
          <SweepLine s={s} />
          <ReconciliationSection run={s.reconciliation} />
          {s.alarms.length > 0 && <Alarms alarms={s.alarms} />}
        </div>
      )}
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
          ? 'Coverage not known yet'
          : s.coverage === null
            ? 'Nothing owed'
            : `${(s.coverage * 100).toFixed(1)} % covered`}
      </p>
      <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-slate-700">
        <dt>Owed to investors</dt>
        <dd className="text-right font-medium whitespace-nowrap">{usdc(s.liabilities)}</dd>
        <dt>On deposit addresses</dt>
        <dd className="text-right font-medium whitespace-nowrap">{s.asOf ? usdc(s.assets.depositAddresses) : '—'}</dd>
        <dt>On the payout address</dt>
        <dd className="text-right font-medium whitespace-nowrap">{s.asOf ? usdc(s.assets.payoutAddress) : '—'}</dd>
        <dt>In the treasury</dt>
        <dd className="text-right font-medium whitespace-nowrap">{s.asOf ? usdc(s.assets.treasury) : '—'}</dd>
      </dl>
      <p className="text-xs text-slate-600">
        {s.asOf
          ? `On-chain balances read ${dateTime(s.asOf)}`
          : 'On-chain balances not read yet: the blockchain node has not answered since the server started.'}
      </p>
    </div>
  );
}

function WatcherLine({ watcher }: { watcher: NonNullable<Solvency['watcher']> }) {
  const stale = !watcher.checkedAt || Date.now() - new Date(watcher.checkedAt).getTime() > WATCHER_STALE_MS;
  return (
    <p className={stale ? 'font-medium text-rose-700' : 'text-slate-700'} data-testid="solvency-watcher">
      {watcher.checkedAt
        ? `${stale ? 'Deposits are not being found: the watcher last read the chain' : 'Deposit watcher read the chain'} ${dateTime(watcher.checkedAt)} (head ${count(watcher.headBlock ?? 0)}, credited through block ${count(watcher.cursorBlock)}).`
        : 'Deposits are not being found: the watcher has not read the chain yet.'}
    </p>
  );
}

/** The last sweep of the deposit addresses into the treasury, and the plan the offline signer takes (decision 0072). */
function SweepLine({ s }: { s: Solvency }) {
  const [busy, setBusy] = useState(false);
  async function onDownload() {
    setBusy(true);
    try {
      const file = await fetchFile('/admin/solvency/sweep-plan', 'sweep-plan.json', 'application/json');
      save(file);
      toast.success(`Downloaded ${file.name}: sign it offline with npm run sweep:sign`);
    } catch (err) {
      toast.error(errorText(err, 'The sweep plan could not be read'));
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 border-t border-slate-200 pt-3">
      <p className="text-slate-700" data-testid="solvency-sweep">
        {s.lastSweep
          ? `Last sweep: ${count(s.lastSweep.addresses)} deposit address${s.lastSweep.addresses === 1 ? '' : 'es'}, ${usdc(s.lastSweep.total)} to the treasury (read ${dateTime(s.lastSweep.at)}).`
          : 'No sweep of the deposit addresses yet.'}
      </p>
      <Button variant="secondary" onClick={onDownload} disabled={busy}>
        {busy ? 'Reading...' : 'Download sweep plan'}
      </Button>
    </div>
  );
}

const KIND_LABEL: Record<Difference['kind'], string> = {
  unbacked: 'Credited without a transfer',
  differs: 'Differs from the chain',
  too_shallow: 'Credited too early',
  missed: 'Transfer not credited',
  unpaid: 'Payout not on the chain',
};

function ReconciliationSection({ run }: { run: Reconciliation | null }) {
  const reconcile = useReconcile();
  async function onReconcile() {
    try {
      toast.success((await reconcile.mutateAsync()).message);
    } catch (err) {
      toast.error(errorText(err, 'The reconciliation could not start'));
    }
  }
  const running = run?.status === 'running';
  return (
    <section aria-labelledby="reconciliation-title" className="space-y-2 border-t border-slate-200 pt-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="reconciliation-title" className="font-semibold text-slate-900">
          Reconciliation against the chain
        </h3>
        <Button variant="secondary" onClick={onReconcile} disabled={reconcile.isPending || running}>
          {running ? 'Reconciling...' : 'Reconcile now'}
        </Button>
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
              <p className="font-medium">{KIND_LABEL[d.kind]}</p>
              {(d.creditedAmount !== null || d.chainAmount !== null) && (
                <p>
                  {d.creditedAmount !== null && (
                    <span className="whitespace-nowrap">Credited {usdc(d.creditedAmount)}</span>
                  )}
                  {d.creditedAmount !== null && d.chainAmount !== null && ' · '}
                  {d.chainAmount !== null && <span className="whitespace-nowrap">On chain {usdc(d.chainAmount)}</span>}
                </p>
              )}
              <p className="[overflow-wrap:anywhere]">{d.detail}</p>
              <p className="text-xs [overflow-wrap:anywhere]">
                {d.address && (
                  <>
                    Address <span className="font-mono">{d.address}</span>
                  </>
                )}
                {d.txHash && (
                  <>
                    {' '}
                    · Transaction{' '}
                    <span className="font-mono" title={d.txHash}>
                      {shortHash(d.txHash)}
                    </span>
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
  if (!run) return 'Not run yet: it runs once a day, or now with Reconcile now.';
  if (run.status === 'running') return `Running since ${dateTime(run.startedAt)}...`;
  const when = dateTime(run.finishedAt ?? run.startedAt);
  if (run.status === 'failed') return `Could not read the chain (${when}): ${run.error ?? 'unknown error'}`;
  const plural = (n: number, one: string) => `${count(n)} ${one}${n === 1 ? '' : 's'}`;
  const scope = `${plural(run.checked.deposits, 'credited deposit')} and ${plural(run.checked.transfers, 'transfer')} through block ${count(run.throughBlock ?? 0)}`;
  return run.status === 'clean'
    ? `Clean: every credit matches the chain (${scope}, ${when}).`
    : `${count(run.differenceCount)} difference${run.differenceCount === 1 ? '' : 's'} with the chain (${scope}, ${when}). npm run chain:reconcile prints them all.`;
}

function Alarms({ alarms }: { alarms: Solvency['alarms'] }) {
  const ack = useAcknowledgeAlarm();
  async function onAck(id: string) {
    try {
      toast.success((await ack.mutateAsync(id)).message);
    } catch (err) {
      toast.error(errorText(err, 'The alarm could not be acknowledged'));
    }
  }
  return (
    <section aria-labelledby="chain-alarms-title" className="space-y-2 border-t border-slate-200 pt-3">
      <h3 id="chain-alarms-title" className="font-semibold text-rose-800">
        Chain alarms
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
            <Button
              variant="danger"
              className="self-end sm:self-start"
              onClick={() => onAck(a._id)}
              disabled={ack.isPending}
              aria-label={`Acknowledge alarm: ${a.detail}`}
            >
              Acknowledge
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
