import { toast } from '../../../lib/toast.ts';
import { TEXT } from '@harvest/shared/texts';
import { processDepositBody } from '@harvest/shared/schemas/deposits';
import { Button } from '../../../components/ui/button.tsx';
import { TextInput } from '../../../components/ui/field.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { firstError, useZodForm } from '../../../lib/form.ts';
import { useSubmitDeposit } from '../api/submit-deposit.ts';
import { t } from '../../../lib/i18n.tsx';

interface Values {
  txHash: string;
  amount: string;
  fromAddress: string;
}
const EMPTY: Values = { txHash: '', amount: '', fromAddress: '' };

/**
 * Submit a deposit: the shared schema checks the spec's messages first, in the server's order; each
 * shows under its field, and the first also as the spec's toast.
 */
export function DepositForm() {
  const form = useZodForm<Values>(processDepositBody, { defaultValues: EMPTY });
  const submit = useSubmitDeposit();
  const errors = form.formState.errors;

  async function onValid(v: Values) {
    try {
      const res = await submit.mutateAsync(v);
      if (res.deposit.status === 'failed') toast.error(res.message);
      else toast.success(res.message);
      form.reset(EMPTY);
    } catch (err) {
      toast.error(errorText(err, TEXT.depositFailed));
    }
  }

  return (
    <form
      onSubmit={form.handleSubmit(onValid, (errs) => toast.error(firstError(errs) ?? TEXT.depositFailed))}
      noValidate
      className="space-y-3"
      aria-label={t('Submit deposit')}
    >
      <TextInput
        label={t('Transaction Hash')}
        placeholder="0x..."
        autoComplete="off"
        spellCheck={false}
        dir="ltr"
        error={errors.txHash?.message}
        {...form.register('txHash')}
      />
      <TextInput
        label={t('Amount (USDC)')}
        type="number"
        inputMode="decimal"
        dir="ltr"
        min="0.5"
        step="any"
        placeholder="0.5"
        error={errors.amount?.message}
        {...form.register('amount')}
      />
      <TextInput
        label={t('From Address')}
        placeholder={t('0x... (the wallet you sent from)')}
        autoComplete="off"
        spellCheck={false}
        dir="ltr"
        error={errors.fromAddress?.message}
        {...form.register('fromAddress')}
      />
      <Button type="submit" disabled={submit.isPending} className="w-full sm:w-auto">
        {submit.isPending ? t('Submitting...') : t('Submit Deposit')}
      </Button>
    </form>
  );
}
