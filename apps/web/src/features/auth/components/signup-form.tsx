import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from '../../../lib/toast.ts';
import { TEXT } from '@harvest/shared/texts';
import { registerBody } from '@harvest/shared/schemas/auth';
import { MAX_LENGTH } from '@harvest/shared/constants';
import { Button } from '../../../components/ui/button.tsx';
import { Field, PasswordInput, TextInput, inputClass } from '../../../components/ui/field.tsx';
import { ApiError, errorText } from '../../../lib/api-client.ts';
import { deviceId } from '../../../lib/device-id.ts';
import { useAuth } from '../../../lib/auth.tsx';
import { firstError, useZodForm } from '../../../lib/form.ts';
import { register, sendCode } from '../api/auth.ts';
import { AuthCard } from './auth-card.tsx';
import { CountrySelect, dialOf } from './country-select.tsx';
import { useState } from 'react';
import { t } from '../../../lib/i18n.tsx';

const SUMMARY_ID = 'signup-missing';

interface Values {
  invitationCode: string;
  firstName: string;
  lastName: string;
  email: string;
  verificationCode: string;
  country: string;
  phoneNumber: string;
  password: string;
  confirmPassword: string;
  withdrawalPassword: string;
}

/** The registration payload (spec section 3): the phone is the country's dial code plus the number. */
const toBody = (v: Values) => ({
  invitationCode: v.invitationCode.trim(),
  firstName: v.firstName,
  lastName: v.lastName,
  email: v.email.trim(),
  phone: v.phoneNumber.trim() ? `${dialOf(v.country)} ${v.phoneNumber.trim()}` : '',
  password: v.password,
  confirmPassword: v.confirmPassword,
  withdrawalPassword: v.withdrawalPassword,
  verificationCode: v.verificationCode.trim(),
});

export function SignupForm() {
  const auth = useAuth();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [sending, setSending] = useState(false);
  const form = useZodForm<Values>(
    registerBody,
    {
      defaultValues: {
        invitationCode: params.get('code') ?? '',
        firstName: '',
        lastName: '',
        email: '',
        verificationCode: '',
        country: 'US',
        phoneNumber: '',
        password: '',
        confirmPassword: '',
        withdrawalPassword: '',
      },
    },
    { toInput: toBody, fieldOf: { phone: 'phoneNumber' } },
  );
  const { errors, isSubmitting } = form.formState;
  // "All fields are required..." is said once, above the form; each empty field is marked and points at it.
  // Any other problem is said under its own field.
  const missing = Object.values(errors).some((e) => e?.message === TEXT.signupAllRequired);
  const err = (k: keyof Values) => (errors[k]?.message === TEXT.signupAllRequired ? undefined : errors[k]?.message);
  const flag = (k: keyof Values) => (errors[k]?.message === TEXT.signupAllRequired ? SUMMARY_ID : undefined);
  const check = (k: keyof Values) => ({ error: err(k), flaggedBy: flag(k) });

  async function onSendCode() {
    const email = form.getValues('email').trim();
    if (!email) {
      form.fail('email', null, TEXT.emailFirst);
      toast.error(TEXT.emailFirst);
      return;
    }
    setSending(true);
    try {
      const res = await sendCode(email);
      if (res.message) toast.success(res.message);
      else toast.error(TEXT.unexpectedResponse);
    } catch (e) {
      // Not reached: the spec's words, not the network's.
      const err = e instanceof ApiError && e.status === 0 ? null : e;
      form.fail('email', err, TEXT.somethingWrong);
      toast.error(errorText(err, TEXT.somethingWrong));
    } finally {
      setSending(false);
    }
  }

  const onValid = async (v: Values) => {
    try {
      const res = await register({ ...toBody(v), deviceId: deviceId() });
      auth.signIn(res.token, res.user);
      navigate('/dashboard', { replace: true });
    } catch (e) {
      toast.error(errorText(e, TEXT.registrationFailed));
    }
  };
  // The spec's toast beside the inline texts: the first problem, in the spec's order.
  const onInvalid = (errs: typeof errors) => toast.error(firstError(errs) ?? TEXT.registrationFailed);

  return (
    <AuthCard
      title={t('Create Account')}
      intro={t(
        'Harvest Farm is an investment platform for USDC on Polygon. You need an invitation code from an existing member to join.',
      )}
    >
      <form onSubmit={form.handleSubmit(onValid, onInvalid)} className="space-y-4" noValidate>
        {missing && (
          <p id={SUMMARY_ID} className="rounded-lg bg-red-50 p-3 text-sm font-medium text-red-800">
            {t(TEXT.signupAllRequired)}
          </p>
        )}
        <TextInput
          label={t('Invitation Code')}
          autoComplete="off"
          maxLength={MAX_LENGTH.invitationCode}
          {...check('invitationCode')}
          {...form.register('invitationCode')}
        />
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <TextInput
            label={t('First Name')}
            autoComplete="given-name"
            maxLength={MAX_LENGTH.name}
            {...check('firstName')}
            {...form.register('firstName')}
          />
          <TextInput
            label={t('Last Name')}
            autoComplete="family-name"
            maxLength={MAX_LENGTH.name}
            {...check('lastName')}
            {...form.register('lastName')}
          />
        </div>
        <Field label={t('Email')} {...check('email')}>
          {(id, describedBy, invalid) => (
            <div className="flex min-w-0 gap-2">
              <input
                id={id}
                type="email"
                autoComplete="email"
                maxLength={MAX_LENGTH.email}
                aria-describedby={describedBy}
                aria-invalid={invalid || undefined}
                className={inputClass}
                {...form.register('email')}
              />
              <Button variant="secondary" onClick={() => void onSendCode()} disabled={sending} className="shrink-0">
                {sending ? t('Sending...') : t('Send Otp')}
              </Button>
            </div>
          )}
        </Field>
        <TextInput
          label={t('Verification Code')}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={MAX_LENGTH.verificationCode}
          {...check('verificationCode')}
          {...form.register('verificationCode')}
        />
        <Field label={t('Phone Number')} {...check('phoneNumber')}>
          {(id, describedBy, invalid) => (
            // The selector and the number share the row inside the card: the code narrow, the number the rest.
            <div className="grid min-w-0 grid-cols-[7.5rem_minmax(0,1fr)] gap-2">
              <CountrySelect value={form.watch('country')} onChange={(iso) => form.setValue('country', iso)} />
              <input
                id={id}
                type="tel"
                autoComplete="tel-national"
                maxLength={MAX_LENGTH.phoneNumber}
                aria-describedby={describedBy}
                aria-invalid={invalid || undefined}
                className={inputClass}
                {...form.register('phoneNumber')}
              />
            </div>
          )}
        </Field>
        <PasswordInput
          label={t('Password')}
          autoComplete="new-password"
          maxLength={MAX_LENGTH.password}
          {...check('password')}
          {...form.register('password')}
        />
        <PasswordInput
          label={t('Confirm Password')}
          autoComplete="new-password"
          maxLength={MAX_LENGTH.password}
          {...check('confirmPassword')}
          {...form.register('confirmPassword')}
        />
        <PasswordInput
          label={t('Withdrawal Password')}
          autoComplete="new-password"
          hint={t(
            'Use a password different from your login password: it is more secure and is asked for every withdrawal.',
          )}
          maxLength={MAX_LENGTH.password}
          {...check('withdrawalPassword')}
          {...form.register('withdrawalPassword')}
        />
        <Button type="submit" className="w-full" disabled={isSubmitting}>
          {isSubmitting ? t('Creating Account...') : t('Create Account')}
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-slate-700">
        {t('Already have an account?')}{' '}
        <Link to="/login" className="font-semibold text-purple-800 underline-offset-2 hover:underline">
          {t('Sign in')}
        </Link>
      </p>
    </AuthCard>
  );
}
