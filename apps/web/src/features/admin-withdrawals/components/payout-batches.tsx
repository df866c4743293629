import { msg } from '@harvest/shared/i18n';
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { PayoutBatch } from '@harvest/shared/schemas/withdrawals';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { errorText, hasCode } from '../../../lib/api-client.ts';
import { useFailure } from '../../../lib/form.ts';
import { count, dateTime, usdc } from '../../../lib/format.ts';
import { toast } from '../../../lib/toast.ts';
import { batchesQuery, useCancelBatch, useCreateBatch, useDownloadBatchFile } from '../api/payouts.ts';
import { t } from '../../../lib/i18n.tsx';
import { sayReceipt } from '../../../lib/server-text.ts';
import { useCan } from '../../../lib/auth.tsx';

const BATCH_STATUS = {
  open: { label: msg('In payment'), cls: 'bg-sky-100 text-sky-800' },
  completed: { label: msg('Completed'), cls: 'bg-emerald-100 text-emerald-800' },
  cancelled: { label: msg('Cancelled'), cls: 'bg-slate-100 text-slate-700' },
} as const;

/** Downloads a batch's file and says so (or why not). */
function useDownload() {
  const downloadFile = useDownloadBatchFile();
  return async (id: string, format: 'safe' | 'csv') => {
    try {
      toast.success(t('Downloaded {name}', { name: await downloadFile(id, format) }));
    } catch (err) {
      toast.error(errorText(err, t('The batch file could not be downloaded')));
    }
  };
}

/**
 * Exports the ticked pending withdrawals as one payout batch (decision 0071): one USDC transfer per request (its
 * withdrawals added up) or one per withdrawal, for a multisig (Safe Transaction Builder file) or another wallet (CSV).
 */
export function ExportBatchDialog({
  open,
  ids,
  onClose,
  onDone,
}: {
  open: boolean;
  ids: string[];
  onClose: () => void;
  onDone: () => void;
}) {
  const [grouped, setGrouped] = useState(true);
  const failure = useFailure();
  const create = useCreateBatch();
  const download = useDownload();

  async function onCreate() {
    failure.clear();
    try {
      const res = await create.mutateAsync({ withdrawalIds: ids, grouped });
      const { batch } = res;
      toast.success(sayReceipt(res));
      onDone();
      await download(batch._id, 'safe');
    } catch (err) {
      failure.set(err, msg('The payout batch could not be created'));
    }
  }

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={t('Export payout batch')}
      description={t(
        ids.length === 1
          ? '1 pending withdrawal becomes "in payment" until the payout is read on chain, which completes it; it cannot be exported twice.'
          : '{n} pending withdrawals become "in payment" until the payout is read on chain, which completes them; they cannot be exported twice.',
        { n: count(ids.length) },
      )}
    >
      <fieldset className="space-y-2 text-sm text-slate-800">
        <legend className="mb-1 font-semibold text-slate-900">{t('Transfers')}</legend>
        <label className="flex items-start gap-2">
          <input
            type="radio"
            name="grouped"
            className="mt-1 accent-purple-700"
            checked={grouped}
            onChange={() => setGrouped(true)}
          />
          <span>{t("One per request: a request's withdrawals added up (fewer transfers)")}</span>
        </label>
        <label className="flex items-start gap-2">
          <input
            type="radio"
            name="grouped"
            className="mt-1 accent-purple-700"
            checked={!grouped}
            onChange={() => setGrouped(false)}
          />
          <span>{t('One per withdrawal')}</span>
        </label>
      </fieldset>
      {failure.text && (
        <p role="alert" className="mt-3 text-sm text-red-700">
          {failure.text}
        </p>
      )}
      <div className="mt-5 flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          {t('Cancel')}
        </Button>
        <Button onClick={() => void onCreate()} disabled={create.isPending || ids.length === 0}>
          {create.isPending ? t('Creating...') : t('Create batch and download')}
        </Button>
      </div>
    </Dialog>
  );
}

/** Payout batches: the open ones' files (Safe or CSV) and cancellation, and the recently closed ones. */
export function PayoutBatches() {
  const q = useQuery(batchesQuery());
  return (
    <Card title={t('Payout batches')}>
      <p className="mb-3 text-sm text-slate-700">
        {t(
          'Tick pending withdrawals and export them for the payout wallet: a {safe} Transaction Builder file, or a CSV of address and amount. Each withdrawal completes by itself once its transfer is read on chain.',
          { safe: 'Safe{Wallet}' },
        )}
      </p>
      <QueryState query={q} what={t('payout batches')} lines={2}>
        {({ batches }) =>
          batches.length === 0 ? (
            <p className="text-sm text-slate-600">{t('No payout batches yet.')}</p>
          ) : (
            <ul className="space-y-2">
              {batches.map((b) => (
                <BatchItem key={b._id} b={b} />
              ))}
            </ul>
          )
        }
      </QueryState>
    </Card>
  );
}

function BatchItem({ b }: { b: PayoutBatch }) {
  const cancel = useCancelBatch();
  const download = useDownload();
  const [confirm, setConfirm] = useState(false);
  const failure = useFailure();
  const money = useCan('money');
  // Downloaded (as read, or as the server answered a cancel): the payout wallet may still execute the file.
  const [downloaded, setDownloaded] = useState(false);
  const [notExecuted, setNotExecuted] = useState(false);
  const mustConfirm = b.downloadedAt !== null || downloaded;
  const st = BATCH_STATUS[b.status];
  // A cancelled batch whose file was downloaded keeps its withdrawals in payment until then.
  const graceUntil =
    b.status === 'cancelled' && b.graceUntil && new Date(b.graceUntil).getTime() > Date.now() ? b.graceUntil : null;
  async function onCancel() {
    try {
      toast.success((await cancel.mutateAsync({ id: b._id, confirmNotExecuted: mustConfirm && notExecuted })).message);
      setConfirm(false);
    } catch (err) {
      if (hasCode(err, 'batch_downloaded')) setDownloaded(true);
      failure.set(err, msg('The batch could not be cancelled'));
    }
  }
  return (
    <li className="rounded-xl border border-slate-200 bg-white p-3 text-sm">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="font-semibold text-slate-900">{t('Batch of {date}', { date: dateTime(b.createdAt) })}</span>
        <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${st.cls}`}>{t(st.label)}</span>
      </div>
      <p className="mt-1 text-slate-700">
        {t('{withdrawals} in {transfers}, {total}', {
          withdrawals: b.withdrawals === 1 ? t('1 withdrawal') : t('{n} withdrawals', { n: count(b.withdrawals) }),
          transfers: b.transfers === 1 ? t('1 transfer') : t('{n} transfers', { n: count(b.transfers) }),
          total: usdc(b.total),
        })}
        {' · '}
        {t('{amount} paid', { amount: usdc(b.paid) })}
        {b.status === 'open' && <> · {t('{n} still to pay', { n: count(b.pending) })}</>}
      </p>
      {b.frozen > 0 && (
        <p className="mt-1 font-medium text-red-700">
          {b.downloadedAt
            ? b.frozen === 1
              ? t(
                  '1 withdrawal of a frozen account: new downloads leave it out, but a file downloaded before still pays it (such a payout is held).',
                )
              : t(
                  '{n} withdrawals of frozen accounts: new downloads leave them out, but a file downloaded before still pays them (such a payout is held).',
                  { n: count(b.frozen) },
                )
            : b.frozen === 1
              ? t('1 withdrawal of a frozen account left out of the file')
              : t('{n} withdrawals of frozen accounts left out of the file', { n: count(b.frozen) })}
        </p>
      )}
      {b.refused > 0 && (
        <p className="mt-1 font-medium text-red-700">
          {b.refused === 1
            ? t('1 withdrawal to a wallet the token refuses left out of the file')
            : t('{n} withdrawals to wallets the token refuses left out of the file', { n: count(b.refused) })}
        </p>
      )}
      {graceUntil && (
        <p className="mt-1 text-sky-800">
          {t('Cancelled: its withdrawals stay in payment until {date}', { date: dateTime(graceUntil) })}
        </p>
      )}
      {money && b.status === 'open' && (
        <div className="mt-2 flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={() => void download(b._id, 'safe')}>
            {t('Safe file')}
          </Button>
          <Button variant="secondary" onClick={() => void download(b._id, 'csv')}>
            {t('CSV')}
          </Button>
          <Button
            variant="danger"
            onClick={() => {
              failure.clear();
              setNotExecuted(false);
              setConfirm(true);
            }}
          >
            {t('Cancel batch')}
          </Button>
        </div>
      )}
      <ConfirmDialog
        open={confirm}
        title={t('Cancel this payout batch?')}
        confirmLabel={t('Cancel batch')}
        cancelLabel={t('Keep the batch')}
        destructive
        busy={cancel.isPending}
        confirmDisabled={mustConfirm && !notExecuted}
        error={failure.text}
        onCancel={() => setConfirm(false)}
        onConfirm={() => void onCancel()}
      >
        {mustConfirm ? (
          <>
            <p>
              {b.pending === 1
                ? t(
                    'Its file was downloaded, so the payout wallet may still execute it. Its 1 withdrawal still to pay stays in payment for the grace period (BATCH_CANCEL_GRACE_HOURS, 24 hours by default): a payout read on chain in that time still completes it. Only then can it be rejected or exported again.',
                  )
                : t(
                    'Its file was downloaded, so the payout wallet may still execute it. Its {n} withdrawals still to pay stay in payment for the grace period (BATCH_CANCEL_GRACE_HOURS, 24 hours by default): a payout read on chain in that time still completes them. Only then can they be rejected or exported again.',
                    { n: count(b.pending) },
                  )}
            </p>
            <label className="mt-3 flex items-start gap-2 font-medium text-slate-900">
              <input
                type="checkbox"
                className="mt-0.5 size-4 shrink-0 accent-purple-700"
                checked={notExecuted}
                onChange={(e) => setNotExecuted(e.target.checked)}
              />
              <span>
                {t(
                  "I confirm this file was not and will not be executed (in a Safe: I rejected that transaction's nonce)",
                )}
              </span>
            </label>
          </>
        ) : (
          <p>
            {b.pending === 1
              ? t(
                  'Its 1 withdrawal still to pay leaves it and can be exported again. Cancel only if the batch was not executed: a payout read on chain still completes it.',
                )
              : t(
                  'Its {n} withdrawals still to pay leave it and can be exported again. Cancel only if the batch was not executed: a payout read on chain still completes them.',
                  { n: count(b.pending) },
                )}
          </p>
        )}
      </ConfirmDialog>
    </li>
  );
}
