import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import { POLL_DEPOSITS_MS } from '@harvest/shared/constants';
import { TEXT } from '@harvest/shared/texts';
import { updateFailedDepositBody, type Deposit } from '@harvest/shared/schemas/deposits';
import { Button } from '../../../components/ui/button.tsx';
import { TextInput } from '../../../components/ui/field.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useUpdateFailedDeposit } from '../api/update-failed-deposit.ts';
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
  const [form, setForm] = useState({ txHash: deposit.txHash ?? '', amount: String(deposit.amount) });
  const update = useUpdateFailedDeposit();

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const body = { depositId: deposit._id, ...form };
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
        className="mt-3 grid gap-3 sm:grid-cols-[1fr_10rem_auto] sm:items-end"
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
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? 'Updating...' : 'Update & Retry'}
        </Button>
      </form>
    </li>
  );
}
