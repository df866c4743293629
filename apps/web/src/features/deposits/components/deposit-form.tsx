import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import { TEXT } from '@harvest/shared/texts';
import { processDepositBody } from '@harvest/shared/schemas/deposits';
import { Button } from '../../../components/ui/button.tsx';
import { TextInput } from '../../../components/ui/field.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useSubmitDeposit } from '../api/submit-deposit.ts';

const EMPTY = { txHash: '', amount: '', fromAddress: '' };

/** Submit a deposit: the spec's messages are checked here first, in the server's order. */
export function DepositForm() {
  const [form, setForm] = useState(EMPTY);
  const submit = useSubmitDeposit();
  const set = (k: keyof typeof EMPTY) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [k]: e.target.value }));

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const checked = processDepositBody.safeParse(form);
    if (!checked.success) return void toast.error(checked.error.issues[0]?.message ?? TEXT.depositFailed);
    try {
      const res = await submit.mutateAsync(form);
      if (res.deposit.status === 'failed') toast.error(res.message);
      else toast.success(res.message);
      setForm(EMPTY);
    } catch (err) {
      toast.error(errorText(err, TEXT.depositFailed));
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-3" aria-label="Submit deposit">
      <TextInput
        label="Transaction Hash"
        name="txHash"
        placeholder="0x..."
        autoComplete="off"
        spellCheck={false}
        value={form.txHash}
        onChange={set('txHash')}
      />
      <TextInput
        label="Amount (USDC)"
        name="amount"
        type="number"
        inputMode="decimal"
        min="0.5"
        step="any"
        placeholder="0.5"
        value={form.amount}
        onChange={set('amount')}
      />
      <TextInput
        label="From Address"
        name="fromAddress"
        placeholder="0x... (the wallet you sent from)"
        autoComplete="off"
        spellCheck={false}
        value={form.fromAddress}
        onChange={set('fromAddress')}
      />
      <Button type="submit" disabled={submit.isPending} className="w-full sm:w-auto">
        {submit.isPending ? 'Submitting...' : 'Submit Deposit'}
      </Button>
    </form>
  );
}
