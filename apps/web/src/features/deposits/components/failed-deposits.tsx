import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import { POLL_DEPOSITS_MS } from '@harvest/shared/constants';
import { TEXT } from '@harvest/shared/texts';
import { FROM_ADDRESS_CORRECTABLE, updateFailedDepositBody, type Deposit } from '@harvest/shared/schemas/deposits';
import { Button } from '../../../components/ui/button.tsx';
import { TextInput } from '../../../components/ui/field.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useUpdateFailedDeposit } from '../api/update-failed-deposit.ts';
import { useDismissFailedDeposit } from '../api/dismiss-failed-deposit.ts';
import { cutHash, dateTime, usdcText } from '../lib/format.ts';
import { useQuery } from '@tanstack/react-query';
import { failedDepositsQuery } from '../../../lib/query-keys.ts';

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
        Failed Deposits
      </h2>
      <p className="mb-3 text-sm text-rose-900">
        These deposits could not be verified. Correct the transaction hash and amount to have them checked again.
      </p>
      <ul className="space-y-3">
        {deposits.map((d) => (
          <FailedDepositItem key={d._id} deposit={d} />
        ))}
      </ul>
    </section>
  );
}

function FailedDepositItem({ deposit }: { deposit: Deposit }) {
  // A wrong sender (or an administrator's rejection) may need another from-address.
  const withFrom = deposit.failureKind !== null && FROM_ADDRESS_CORRECTABLE.includes(deposit.failureKind);
  const [form, setForm] = useState({
    txHash: deposit.txHash ?? '',
    amount: String(deposit.amount),
    fromAddress: deposit.fromAddress ?? '',
  });
  const update = useUpdateFailedDeposit();
  const dismiss = useDismissFailedDeposit();

  async function onDismiss() {
    try {
      toast.success((await dismiss.mutateAsync(deposit._id)).message);
    } catch (err) {
      toast.error(errorText(err, TEXT.dismissDepositFailed));
    }
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const body = {
      depositId: deposit._id,
      txHash: form.txHash,
      amount: form.amount,
      ...(withFrom ? { fromAddress: form.fromAddress } : {}),
    };
    const checked = updateFailedDepositBody.safeParse(body);
    if (!checked.success) return void toast.error(checked.error.issues[0]?.message ?? TEXT.updateFailed);
    try {
      const res = await update.mutateAsync(body);
      if (res.deposit.status === 'failed') toast.error(res.message);
      else toast.success(res.message);
    } catch (err) {
      toast.error(errorText(err, TEXT.updateFailed));
    }
  }

  return (
    <li className="rounded-xl bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
        <span className="font-semibold text-slate-900">{usdcText(deposit.amount)}</span>
        <span className="font-mono text-slate-600" title={deposit.txHash ?? undefined}>
          {cutHash(deposit.txHash)}
        </span>
        <span className="text-slate-500">{dateTime(deposit.createdAt)}</span>
      </div>
      {deposit.failureReason && <p className="mt-2 text-sm text-rose-800">{deposit.failureReason}</p>}
      <form
        onSubmit={onSubmit}
        noValidate
        className={`mt-3 grid gap-3 sm:items-end ${withFrom ? 'sm:grid-cols-[1fr_10rem_1fr_auto]' : 'sm:grid-cols-[1fr_10rem_auto]'}`}
        aria-label="Correct failed deposit"
      >
        <TextInput
          label="Transaction Hash"
          name="txHash"
          autoComplete="off"
          spellCheck={false}
          value={form.txHash}
          onChange={(e) => setForm((f) => ({ ...f, txHash: e.target.value }))}
        />
        <TextInput
          label="Amount (USDC)"
          name="amount"
          type="number"
          inputMode="decimal"
          step="any"
          value={form.amount}
          onChange={(e) => setForm((f) => ({ ...f, amount: e.target.value }))}
        />
        {withFrom && (
          <TextInput
            label="From Address"
            name="fromAddress"
            autoComplete="off"
            spellCheck={false}
            value={form.fromAddress}
            onChange={(e) => setForm((f) => ({ ...f, fromAddress: e.target.value }))}
          />
        )}
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? 'Updating...' : 'Update & Retry'}
        </Button>
      </form>
      <div className="mt-2 flex justify-end">
        <Button
          variant="secondary"
          onClick={onDismiss}
          disabled={dismiss.isPending}
          aria-label={`Dismiss failed deposit of ${usdcText(deposit.amount)}`}
        >
          Dismiss
        </Button>
      </div>
    </li>
  );
}
