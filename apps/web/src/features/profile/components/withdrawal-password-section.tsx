import { useState } from 'react';
import { withdrawalPasswordBody } from '@harvest/shared/schemas/user';
import { MAX_LENGTH } from '@harvest/shared/constants';
import { Button } from '../../../components/ui/button.tsx';
import { PasswordInput, TextInput } from '../../../components/ui/field.tsx';
import { errorText, hasCode, isAbout } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth.tsx';
import { firstError, useFailure, useZodForm } from '../../../lib/form.ts';
import { t } from '../../../lib/i18n.tsx';
import { sayReceipt } from '../../../lib/server-text.ts';
import { toast } from '../../../lib/toast.ts';
import { useChangeWithdrawalPassword } from '../api/withdrawal-password.ts';

interface Values {
  currentWithdrawalPassword: string;
  newWithdrawalPassword: string;
  confirmWithdrawalPassword: string;
  totpCode: string;
}
const EMPTY: Values = {
  currentWithdrawalPassword: '',
  newWithdrawalPassword: '',
  confirmWithdrawalPassword: '',
  totpCode: '',
};
const input = ({ totpCode, ...v }: Values) => ({ ...v, ...(totpCode.trim() ? { totpCode: totpCode.trim() } : {}) });

/**
 * Profile: the withdrawal password changed as the login password is (the current one, the new one twice, the
 * authenticator code when it is on). The change holds withdrawals for a while and is e-mailed to the owner.
 */
export function WithdrawalPasswordSection() {
  const { user } = useAuth();
  const [open, setOpen] = useState(false);
  const form = useZodForm<Values>(withdrawalPasswordBody, { defaultValues: EMPTY }, { toInput: input });
  const errors = form.formState.errors;
  const failure = useFailure();
  const change = useChangeWithdrawalPassword();
  if (!user) return null;
  const fallback = t('The withdrawal password could not be changed');

  async function onValid(v: Values) {
    failure.clear();
    try {
      toast.success(sayReceipt(await change.mutateAsync(input(v))));
      form.reset(EMPTY);
      setOpen(false);
    } catch (err) {
      const field: keyof Values | null = hasCode(err, 'wrong_password')
        ? 'currentWithdrawalPassword'
        : hasCode(err, 'two_factor_required') || hasCode(err, 'two_factor_invalid')
          ? 'totpCode'
          : isAbout(err, 'newWithdrawalPassword')
            ? 'newWithdrawalPassword'
            : null;
      if (field) form.fail(field, err, fallback);
      else failure.set(err, fallback);
      toast.error(errorText(err, fallback));
    }
  }

  return (
    <section
      aria-labelledby="withdrawal-password-title"
      className="space-y-2 rounded-lg border border-slate-200 p-3 text-sm"
    >
      <h3 id="withdrawal-password-title" className="font-semibold text-slate-800">
        {t('Withdrawal password')}
      </h3>
      <p className="text-slate-600">
        {t('Changing it holds your withdrawals for a while, as any security change does, and we e-mail you about it.')}
      </p>
      {!open ? (
        <Button variant="secondary" onClick={() => setOpen(true)}>
          {t('Change withdrawal password')}
        </Button>
      ) : (
        <form
          onSubmit={form.handleSubmit(onValid, (errs) => toast.error(firstError(errs) ?? fallback))}
          className="space-y-3"
          noValidate
          aria-label={t('Change withdrawal password')}
        >
          <PasswordInput
            label={t('Current withdrawal password')}
            autoComplete="off"
            maxLength={MAX_LENGTH.password}
            error={errors.currentWithdrawalPassword?.message}
            {...form.register('currentWithdrawalPassword')}
          />
          <PasswordInput
            label={t('New withdrawal password')}
            autoComplete="new-password"
            maxLength={MAX_LENGTH.password}
            hint={t('At least 6 characters, different from your login password')}
            error={errors.newWithdrawalPassword?.message}
            {...form.register('newWithdrawalPassword')}
          />
          <PasswordInput
            label={t('Confirm new withdrawal password')}
            autoComplete="new-password"
            maxLength={MAX_LENGTH.password}
            error={errors.confirmWithdrawalPassword?.message}
            {...form.register('confirmWithdrawalPassword')}
          />
          {user.twoFactorEnabled && (
            <TextInput
              label={t('Authentication or recovery code')}
              autoComplete="one-time-code"
              maxLength={MAX_LENGTH.authCode}
              error={errors.totpCode?.message}
              {...form.register('totpCode')}
            />
          )}
          {failure.text && (
            <p role="alert" className="rounded-lg bg-red-50 p-3 text-red-800">
              {failure.text}
            </p>
          )}
          <div className="flex flex-wrap justify-end gap-2">
            <Button
              variant="secondary"
              onClick={() => {
                form.reset(EMPTY);
                failure.clear();
                setOpen(false);
              }}
            >
              {t('Cancel')}
            </Button>
            <Button type="submit" disabled={change.isPending}>
              {change.isPending ? t('Saving...') : t('Change withdrawal password')}
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}
