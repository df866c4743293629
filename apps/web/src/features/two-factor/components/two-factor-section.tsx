import { useState } from 'react';
import { msg } from '@harvest/shared/i18n';
import { toast } from '../../../lib/toast.ts';
import { twoFactorDisableBody, twoFactorEnableBody, twoFactorSetupBody } from '@harvest/shared/schemas/two-factor';
import { MAX_LENGTH } from '@harvest/shared/constants';
import { Button } from '../../../components/ui/button.tsx';
import { PasswordInput, TextInput } from '../../../components/ui/field.tsx';
import { errorText, hasCode, isAbout, tokenStore } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth.tsx';
import { firstError, useZodForm } from '../../../lib/form.ts';
import { disableTwoFactor, enableTwoFactor, setupTwoFactor } from '../api/two-factor.ts';
import { t } from '../../../lib/i18n.tsx';

type Step =
  | { kind: 'idle' }
  | { kind: 'password' }
  | { kind: 'scan'; secret: string; qr: string; password: string }
  | { kind: 'codes'; codes: string[] }
  | { kind: 'disable' };

interface PasswordValues {
  password: string;
}
interface CodeValues {
  code: string;
}
interface DisableValues {
  password: string;
  code: string;
}

/** A refusal, toasted; the form shows it at its field. */
function refusal(err: unknown, fallback: string) {
  toast.error(errorText(err, fallback));
  return [err, fallback] as const;
}
const aboutPassword = (err: unknown) => hasCode(err, 'wrong_password') || isAbout(err, 'password');
const toastFirst = (errs: Record<string, { message?: unknown } | undefined>) => {
  const text = firstError(errs);
  if (text) toast.error(text);
};

/** Authenticator-app sign-in (TOTP): enrol with a QR code, keep the recovery codes, or turn it off. */
export function TwoFactorSection() {
  const { user, setUser } = useAuth();
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const passwordForm = useZodForm<PasswordValues>(twoFactorSetupBody, { defaultValues: { password: '' } });
  const scanPassword = step.kind === 'scan' ? step.password : '';
  const codeForm = useZodForm<CodeValues>(
    twoFactorEnableBody,
    { defaultValues: { code: '' } },
    { toInput: (v) => ({ password: scanPassword, code: v.code }) },
  );
  const disableForm = useZodForm<DisableValues>(twoFactorDisableBody, { defaultValues: { password: '', code: '' } });
  if (!user) return null;

  async function start({ password }: PasswordValues) {
    try {
      const res = await setupTwoFactor(password);
      const QR = await import('qrcode');
      const qr = await QR.toDataURL(res.otpauthUrl, { width: 200, margin: 1 });
      passwordForm.reset({ password: '' });
      setStep({ kind: 'scan', secret: res.secret, qr, password });
    } catch (err) {
      passwordForm.fail('password', ...refusal(err, msg('Could not start two-factor set-up')));
    }
  }

  async function confirm({ code }: CodeValues) {
    try {
      const res = await enableTwoFactor(scanPassword, code.trim());
      tokenStore.set(res.token);
      codeForm.reset({ code: '' });
      // On at once: the badge must not say Off while the recovery codes are shown.
      if (user) setUser({ ...user, twoFactorEnabled: true });
      setStep({ kind: 'codes', codes: res.recoveryCodes });
    } catch (err) {
      codeForm.fail('code', ...refusal(err, msg('Invalid authentication code')));
    }
  }

  async function turnOff({ password, code }: DisableValues) {
    try {
      const res = await disableTwoFactor(password, code.trim());
      tokenStore.set(res.token);
      setStep({ kind: 'idle' });
      disableForm.reset({ password: '', code: '' });
      if (user) setUser({ ...user, twoFactorEnabled: false });
      toast.success(res.message);
    } catch (err) {
      disableForm.fail(
        aboutPassword(err) ? 'password' : 'code',
        ...refusal(err, msg('Could not turn off two-factor authentication')),
      );
    }
  }

  return (
    <section
      aria-label={t('Two-factor authentication')}
      className="space-y-3 rounded-lg border border-slate-200 p-3 text-sm"
    >
      <div className="flex items-center justify-between gap-2">
        <p className="font-semibold text-slate-800">{t('Two-factor authentication')}</p>
        <span
          className={`rounded-full px-2 py-0.5 text-xs font-bold ${user.twoFactorEnabled ? 'bg-emerald-100 text-emerald-800' : 'bg-slate-100 text-slate-700'}`}
        >
          {user.twoFactorEnabled ? t('On') : t('Off')}
        </span>
      </div>
      {step.kind === 'idle' && !user.twoFactorEnabled && (
        <Button variant="secondary" onClick={() => setStep({ kind: 'password' })}>
          {t('Turn on with an authenticator app')}
        </Button>
      )}
      {step.kind === 'password' && (
        <form
          className="space-y-2"
          noValidate
          aria-label={t('Confirm your password')}
          onSubmit={passwordForm.handleSubmit(start, toastFirst)}
        >
          <PasswordInput
            label={t('Password')}
            error={passwordForm.formState.errors.password?.message}
            autoComplete="current-password"
            maxLength={MAX_LENGTH.password}
            {...passwordForm.register('password')}
          />
          <div className="flex gap-2">
            <Button variant="secondary" onClick={() => setStep({ kind: 'idle' })}>
              {t('Cancel')}
            </Button>
            <Button type="submit" disabled={passwordForm.formState.isSubmitting}>
              {t('Continue')}
            </Button>
          </div>
        </form>
      )}
      {step.kind === 'idle' && user.twoFactorEnabled && (
        <Button variant="secondary" onClick={() => setStep({ kind: 'disable' })}>
          {t('Turn off')}
        </Button>
      )}
      {step.kind === 'scan' && (
        <form
          className="space-y-2"
          noValidate
          aria-label={t('Confirm the authenticator')}
          onSubmit={codeForm.handleSubmit(confirm, toastFirst)}
        >
          <p className="text-slate-700">
            {t('Scan this code with your authenticator app, then enter the 6-digit code it shows.')}
          </p>
          <img src={step.qr} alt={t('Authenticator QR code')} width={200} height={200} className="mx-auto" />
          <p className="text-center font-mono text-xs break-all text-slate-700">{step.secret}</p>
          <TextInput
            label={t('Authentication code')}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={MAX_LENGTH.authCode}
            error={codeForm.formState.errors.code?.message}
            {...codeForm.register('code')}
          />
          <Button type="submit" disabled={codeForm.formState.isSubmitting}>
            {t('Confirm')}
          </Button>
        </form>
      )}
      {step.kind === 'codes' && (
        <div className="space-y-2">
          <p className="font-semibold text-amber-800">
            {t('Save these recovery codes now. Each works once if you lose your authenticator.')}
          </p>
          <ul data-testid="recovery-codes" className="grid grid-cols-2 gap-1 font-mono text-xs">
            {step.codes.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
          <Button onClick={() => setStep({ kind: 'idle' })}>{t('I saved them')}</Button>
        </div>
      )}
      {step.kind === 'disable' && (
        <form
          className="space-y-2"
          noValidate
          aria-label={t('Turn off two-factor authentication')}
          onSubmit={disableForm.handleSubmit(turnOff, toastFirst)}
        >
          <PasswordInput
            label={t('Password')}
            error={disableForm.formState.errors.password?.message}
            autoComplete="current-password"
            maxLength={MAX_LENGTH.password}
            {...disableForm.register('password')}
          />
          <TextInput
            label={t('Authentication or recovery code')}
            error={disableForm.formState.errors.code?.message}
            autoComplete="one-time-code"
            maxLength={MAX_LENGTH.authCode}
            {...disableForm.register('code')}
          />
          <div className="flex gap-2">
            <Button variant="secondary" onClick={() => setStep({ kind: 'idle' })}>
              {t('Cancel')}
            </Button>
            <Button type="submit" variant="danger" disabled={disableForm.formState.isSubmitting}>
              {t('Turn off')}
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}
