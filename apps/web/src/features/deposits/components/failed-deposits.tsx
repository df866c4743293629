import { toast } from '../../../lib/toast.ts';
import { POLL_DEPOSITS_MS } from '@harvest/shared/constants';
import { TEXT } from '@harvest/shared/texts';
import { FROM_ADDRESS_CORRECTABLE, updateFailedDepositBody, type Deposit } from '@harvest/shared/schemas/deposits';
import { Button } from '../../../components/ui/button.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { firstError, useZodForm } from '../../../lib/form.ts';
import { useUpdateFailedDeposit } from '../api/update-failed-deposit.ts';
import { useDismissFailedDeposit } from '../api/dismiss-failed-deposit.ts';
import { DepositFields, type DepositValues } from './deposit-fields.tsx';
import { useQuery } from '@tanstack/react-query';
import { failedDepositsQuery } from '../api/deposit-history.ts';
import { dateTime, usdc } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.tsx';
import { StoredText } from '../../../components/ui/stored-text.tsx';
import { ChainValue } from '../../../components/ui/chain-value.tsx';

/** The failed-deposits correction area: each failed deposit with its reason and a correction form. */
export function FailedDeposits() {
  const failed = useQuery(failedDepositsQuery(POLL_DEPOSITS_MS));
  const deposits = failed.data?.deposits ?? [];
  if (deposits.length === 0) return null;
  return (
    <section
      aria-labelledby="failed-deposits-title"
      className="rounded-2xl border border-rose-200 bg-rose-50/95 p-5 shadow-lg"
    >
      <h2 id="failed-deposits-title" className="text-lg font-bold text-rose-900">
        {t('Failed Deposits')}
      </h2>
      <p className="mb-3 text-sm text-rose-900">
        {deposits.some((d) => d.correctable)
          ? t(
              'These deposits were not credited. Correct the transaction hash and amount of one you submitted to have it checked again.',
            )
          : t('These deposits were not credited.')}
      </p>
      <ul className="space-y-3">
        {deposits.map((d) =>
          d.correctable ? <FailedDepositItem key={d._id} deposit={d} /> : <ChainFailure key={d._id} deposit={d} />,
        )}
      </ul>
    </section>
  );
}

/** A transfer the chain watcher read (below the minimum, say): the chain's facts, shown with why, not editable. */
function ChainFailure({ deposit }: { deposit: Deposit }) {
  return (
    <li className="rounded-xl bg-white p-4 shadow-sm">
      <DepositLine deposit={deposit} />
      {deposit.failureReason && (
        <p className="mt-2 text-sm text-rose-800">
          <StoredText text={deposit.failureReason} said={deposit.failureSaid} />
        </p>
      )}
      <p className="mt-1 text-sm text-slate-700">
        {t(
          'This transfer was read from the blockchain, so it cannot be corrected. It was not credited; send a new deposit to your deposit address instead.',
        )}
      </p>
      <DismissButton deposit={deposit} />
    </li>
  );
}

function DepositLine({ deposit }: { deposit: Deposit }) {
  return (
    <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
      <span className="font-semibold whitespace-nowrap text-slate-900">{usdc(deposit.amount)}</span>
      {deposit.txHash ? (
        <ChainValue kind="tx" value={deposit.txHash} className="text-slate-600" />
      ) : (
        <span className="text-slate-600">—</span>
      )}
      <span className="text-slate-500">{dateTime(deposit.createdAt)}</span>
    </div>
  );
}

function DismissButton({ deposit }: { deposit: Deposit }) {
  const dismiss = useDismissFailedDeposit();
  async function onDismiss() {
    try {
      toast.success((await dismiss.mutateAsync(deposit._id)).message);
    } catch (err) {
      toast.error(errorText(err, TEXT.dismissDepositFailed));
    }
  }
  return (
    <div className="mt-2 flex justify-end">
      <Button
        variant="secondary"
        onClick={onDismiss}
        disabled={dismiss.isPending}
        aria-label={t('Dismiss failed deposit of {amount}', { amount: usdc(deposit.amount) })}
      >
        {t('Dismiss')}
      </Button>
    </div>
  );
}

function FailedDepositItem({ deposit }: { deposit: Deposit }) {
  // A wrong sender (or an administrator's rejection) may need another from-address.
  const withFrom = deposit.failureKind !== null && FROM_ADDRESS_CORRECTABLE.includes(deposit.failureKind);
  const body = (v: DepositValues) => ({
    depositId: deposit._id,
    txHash: v.txHash,
    amount: v.amount,
    ...(withFrom ? { fromAddress: v.fromAddress } : {}),
  });
  const form = useZodForm<DepositValues>(
    updateFailedDepositBody,
    {
      defaultValues: {
        txHash: deposit.txHash ?? '',
        amount: String(deposit.amount),
        fromAddress: deposit.fromAddress ?? '',
      },
    },
    { toInput: body },
  );
  const update = useUpdateFailedDeposit();

  async function onValid(v: DepositValues) {
    try {
      const res = await update.mutateAsync(body(v));
      if (res.deposit.status === 'failed') toast.error(res.message);
      else toast.success(res.message);
    } catch (err) {
      toast.error(errorText(err, TEXT.updateFailed));
    }
  }

  return (
    <li className="rounded-xl bg-white p-4 shadow-sm">
      <DepositLine deposit={deposit} />
      {deposit.failureReason && (
        <p className="mt-2 text-sm text-rose-800">
          <StoredText text={deposit.failureReason} said={deposit.failureSaid} />
        </p>
      )}
      <form
        onSubmit={form.handleSubmit(onValid, (errs) => toast.error(firstError(errs) ?? TEXT.updateFailed))}
        noValidate
        className={`mt-3 grid gap-3 sm:items-end ${withFrom ? 'sm:grid-cols-[1fr_10rem_1fr_auto]' : 'sm:grid-cols-[1fr_10rem_auto]'}`}
        aria-label={t('Correct failed deposit')}
      >
        <DepositFields form={form} withFrom={withFrom} />
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? t('Updating...') : t('Update & Retry')}
        </Button>
      </form>
      <DismissButton deposit={deposit} />
    </li>
  );
}
