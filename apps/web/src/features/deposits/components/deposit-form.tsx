import { toast } from '../../../lib/toast.ts';
import { TEXT } from '@harvest/shared/texts';
import { processDepositBody } from '@harvest/shared/schemas/deposits';
import { Button } from '../../../components/ui/button.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { firstError, useZodForm } from '../../../lib/form.ts';
import { useSubmitDeposit } from '../api/submit-deposit.ts';
import { DepositFields, type DepositValues } from './deposit-fields.tsx';
import { t } from '../../../lib/i18n.tsx';

const EMPTY: DepositValues = { txHash: '', amount: '', fromAddress: '' };

/**
 * Submit a deposit: the shared schema checks the spec's messages first, in the server's order; each
 * shows under its field, and the first also as the spec's toast.
 */
export function DepositForm() {
  const form = useZodForm<DepositValues>(processDepositBody, { defaultValues: EMPTY });
  const submit = useSubmitDeposit();

  async function onValid(v: DepositValues) {
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
      <DepositFields form={form} />
      <Button type="submit" disabled={submit.isPending} className="w-full sm:w-auto">
        {submit.isPending ? t('Submitting...') : t('Submit Deposit')}
      </Button>
    </form>
  );
}
