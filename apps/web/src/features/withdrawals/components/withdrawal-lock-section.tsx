import { msg } from '@harvest/shared/i18n';
import { withStepUp } from '../../../lib/passkey.ts';
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { withdrawalLockBody, type WithdrawalLockInput } from '@harvest/shared/schemas/security';
import { MAX_LENGTH } from '@harvest/shared/constants';
import { Button } from '../../../components/ui/button.tsx';
import { PasswordInput } from '../../../components/ui/field.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth.tsx';
import { dateTime } from '../../../lib/format.ts';
import { firstError, useZodForm } from '../../../lib/form.ts';
import { t } from '../../../lib/i18n.tsx';
import { sayReceipt, type Receipt } from '../../../lib/server-text.ts';
import { toast } from '../../../lib/toast.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { setLock } from '../api/address-book.ts';

/**
 * Profile: the withdrawal address lock. On at once; off only with the login password and a confirmation from the
 * e-mailed link, then after the waiting period. A platform that requires it shows it on, without a switch.
 */
export function WithdrawalLockSection() {
  const { user, setUser } = useAuth();
  const qc = useQueryClient();
  const [askingOff, setAskingOff] = useState(false);
  const [sent, setSent] = useState<Receipt | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useZodForm<WithdrawalLockInput>(withdrawalLockBody, {
    defaultValues: { enabled: false, password: '' },
  });
  if (!user) return null;
  const lock = user.withdrawalLock;

  async function turnOn() {
    setBusy(true);
    try {
      const res = await setLock(true);
      if (user) setUser({ ...user, withdrawalLock: res.withdrawalLock });
      setSent(null);
      toast.success(sayReceipt(res));
      await qc.invalidateQueries({ queryKey: queryKeys.account.all });
    } catch (err) {
      toast.error(errorText(err, t('Could not turn the lock on')));
    } finally {
      setBusy(false);
    }
  }

  async function askOff(v: WithdrawalLockInput) {
    try {
      const res = await withStepUp((passkey) => setLock(false, v.password, passkey), { purpose: 'lock_off' });
      form.reset({ enabled: false, password: '' });
      setAskingOff(false);
      setSent(res);
      toast.success(sayReceipt(res));
    } catch (err) {
      form.fail('password', err, msg('Could not turn the lock off'));
      toast.error(errorText(err, msg('Could not turn the lock off')));
    }
  }

  const badge =
    lock.status === 'off'
      ? { text: t('Off'), tone: 'bg-slate-100 text-slate-700' }
      : lock.status === 'turning_off'
        ? { text: t('Turning off'), tone: 'bg-amber-100 text-amber-900' }
        : { text: t('On'), tone: 'bg-emerald-100 text-emerald-800' };

  return (
    <section aria-labelledby="lock-title" className="space-y-3 rounded-lg border border-slate-200 p-3 text-sm">
      <div className="flex items-center justify-between gap-2">
        <h3 id="lock-title" className="font-semibold text-slate-800">
          {t('Withdrawal address lock')}
        </h3>
        <span className={`rounded-full px-2 py-0.5 text-xs font-bold ${badge.tone}`}>{badge.text}</span>
      </div>
      <p className="text-slate-700">
        {lock.required
          ? t('This platform sends every withdrawal to an active address of your address book.')
          : lock.status === 'turning_off' && lock.endsAt
            ? t('Withdrawals go only to active addresses of your address book until {at}.', {
                at: dateTime(lock.endsAt),
              })
            : t(
                'When on, Withdraw All pays only to active addresses of your address book, so a stolen password cannot send your money elsewhere.',
              )}
      </p>
      {/* The e-mail's note holds until the link is used: then the lock reads "turning off" and says until when. */}
      {sent && lock.status === 'on' && (
        <p role="status" className="rounded-lg bg-purple-50 p-3 text-purple-900">
          {sayReceipt(sent)}
        </p>
      )}
      {!lock.required && lock.status === 'off' && (
        <Button onClick={() => void turnOn()} disabled={busy}>
          {t('Turn on')}
        </Button>
      )}
      {!lock.required && lock.status === 'turning_off' && (
        <Button onClick={() => void turnOn()} disabled={busy}>
          {t('Keep it on')}
        </Button>
      )}
      {!lock.required && lock.status === 'on' && !askingOff && (
        <Button variant="secondary" onClick={() => setAskingOff(true)}>
          {t('Turn off')}
        </Button>
      )}
      {askingOff && (
        <form
          aria-label={t('Turn the withdrawal address lock off')}
          className="space-y-2"
          noValidate
          onSubmit={form.handleSubmit(askOff, (e) => toast.error(firstError(e) ?? t('Could not turn the lock off')))}
        >
          <PasswordInput
            label={t('Login password')}
            autoComplete="current-password"
            maxLength={MAX_LENGTH.password}
            hint={t('We e-mail you a link to confirm; the lock stays on for the waiting period after that.')}
            error={form.formState.errors.password?.message}
            {...form.register('password')}
          />
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" onClick={() => setAskingOff(false)}>
              {t('Cancel')}
            </Button>
            <Button type="submit" variant="danger" disabled={form.formState.isSubmitting}>
              {t('E-mail me the confirmation')}
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}
