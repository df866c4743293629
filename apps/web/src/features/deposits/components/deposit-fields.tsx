import type { UseFormReturn } from 'react-hook-form';
import { AmountInput, TextInput } from '../../../components/ui/field.tsx';
import { t } from '../../../lib/i18n.tsx';

export interface DepositValues {
  txHash: string;
  amount: string;
  fromAddress: string;
}

/** What a deposit is submitted and corrected with: its hash, its amount and (unless `withFrom` is off) its sender. */
export function DepositFields({ form, withFrom = true }: { form: UseFormReturn<DepositValues>; withFrom?: boolean }) {
  const errors = form.formState.errors;
  const code = { autoComplete: 'off', spellCheck: false, dir: 'ltr' } as const;
  return (
    <>
      <TextInput
        label={t('Transaction Hash')}
        placeholder="0x..."
        {...code}
        error={errors.txHash?.message}
        {...form.register('txHash')}
      />
      <AmountInput
        label={t('Amount (USDC)')}
        placeholder="0.5"
        error={errors.amount?.message}
        {...form.register('amount')}
      />
      {withFrom && (
        <TextInput
          label={t('From Address')}
          placeholder={t('0x... (the wallet you sent from)')}
          {...code}
          error={errors.fromAddress?.message}
          {...form.register('fromAddress')}
        />
      )}
    </>
  );
}
