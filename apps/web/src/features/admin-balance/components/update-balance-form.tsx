import { useState } from 'react';
import { toast } from '../../../lib/toast.ts';
import { TEXT } from '@harvest/shared/texts';
import { parseUsdc, microToUsdc } from '@harvest/shared/money';
import { updateUserBalanceBody, type UpdateUserBalanceInput } from '@harvest/shared/schemas/deposits';
import type { AdminUser } from '@harvest/shared/schemas/admin';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { AmountInput, TextInput } from '../../../components/ui/field.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { firstError, useFailure, useZodForm } from '../../../lib/form.ts';
import { fullName, ltr, usdc } from '../../../lib/format.ts';
import { useUpdateUserBalance } from '../api/update-user-balance.ts';
import { rich, t } from '../../../lib/i18n.tsx';

interface Values {
  userId: string;
  newBalance: string;
  note: string;
}

/**
 * Admin users' Update Balance form: sets the user's balance to the exact amount, with an optional
 * note, after a confirmation that shows the current balance, the new one and the difference. It sends
 * the current balance the dialog shows as `expectedBalance`: if the balance moved meanwhile the server
 * refuses (409 'The balance changed to X...') and the list refetches, so the dialog shows the new one.
 * A refusal shows in the dialog and in the browser alert the spec names.
 */
export function UpdateBalanceForm({ user, onDone }: { user: AdminUser; onDone?: () => void }) {
  const form = useZodForm<Values>(updateUserBalanceBody, {
    defaultValues: { userId: user._id, newBalance: '', note: '' },
  });
  const [pending, setPending] = useState<UpdateUserBalanceInput | null>(null);
  const failure = useFailure();
  const update = useUpdateUserBalance();
  const errors = form.formState.errors;

  const onValid = (v: Values) => {
    failure.clear();
    setPending({ userId: user._id, newBalance: v.newBalance, ...(v.note.trim() ? { note: v.note } : {}) });
  };
  const onInvalid = (errs: typeof errors) => toast.error(firstError(errs) ?? TEXT.validAmount);

  async function confirm() {
    if (!pending) return;
    try {
      const res = await update.mutateAsync({ ...pending, expectedBalance: user.balance });
      toast.success(res.message);
      setPending(null);
      form.reset({ userId: user._id, newBalance: '', note: '' });
      onDone?.();
    } catch (err) {
      failure.set(err, TEXT.balanceUpdateFailed);
      window.alert(errorText(err, TEXT.balanceUpdateFailed));
    }
  }

  const current = parseUsdc(user.balance) ?? 0n;
  const next = pending ? (parseUsdc(String(pending.newBalance).trim()) ?? 0n) : 0n;
  const diff = next - current;

  return (
    <form
      onSubmit={form.handleSubmit(onValid, onInvalid)}
      noValidate
      className="space-y-3"
      aria-label={t('Update balance of {name}', { name: fullName(user) })}
    >
      <p className="text-sm text-slate-700">
        {rich(t('Current balance: <0>{amount}</0>', { amount: usdc(user.balance, 'balance') }), [
          (text) => <strong>{text}</strong>,
        ])}
      </p>
      <AmountInput
        label={t('New Balance (USDC)')}
        placeholder="0.00"
        error={errors.newBalance?.message}
        {...form.register('newBalance')}
      />
      <TextInput
        label={t('Note (optional)')}
        maxLength={500}
        placeholder={t(TEXT.balanceNoteDefault)}
        error={errors.note?.message}
        {...form.register('note')}
      />
      <Button type="submit">{t('Update Balance')}</Button>
      <ConfirmDialog
        open={pending !== null}
        title={t('Update balance?')}
        confirmLabel={t('Update Balance')}
        busy={update.isPending}
        error={failure.text}
        onCancel={() => setPending(null)}
        onConfirm={() => void confirm()}
      >
        <p>
          {fullName(user)} ({user.email})
        </p>
        <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
          <dt>{t('Current')}</dt>
          <dd className="text-end">{usdc(user.balance, 'balance')}</dd>
          <dt>{t('New')}</dt>
          <dd className="text-end font-semibold">{usdc(microToUsdc(next), 'balance')}</dd>
          <dt>{t('Difference')}</dt>
          <dd className="text-end">
            {ltr(`${diff > 0n ? '+' : diff < 0n ? '−' : ''}${usdc(microToUsdc(diff < 0n ? -diff : diff), 'balance')}`)}
          </dd>
        </dl>
      </ConfirmDialog>
    </form>
  );
}
