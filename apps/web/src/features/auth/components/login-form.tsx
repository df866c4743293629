import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { toast } from '../../../lib/toast.ts';
import { TEXT } from '@harvest/shared/texts';
import { loginBody } from '@harvest/shared/schemas/auth';
import { MAX_LENGTH } from '@harvest/shared/constants';
import { Button } from '../../../components/ui/button.tsx';
import { PasswordInput, TextInput } from '../../../components/ui/field.tsx';
import { errorText, hasCode } from '../../../lib/api-client.ts';
import { deviceId } from '../../../lib/device-id.ts';
import { useAuth } from '../../../lib/auth.tsx';
import { firstError, useFailure, useZodForm } from '../../../lib/form.ts';
import { login } from '../api/auth.ts';
import { msg } from '@harvest/shared/i18n';
import { AuthCard } from './auth-card.tsx';
import { known, t } from '../../../lib/i18n.tsx';

interface Values {
  email: string;
  password: string;
  totpCode: string;
}

export function LoginForm() {
  const auth = useAuth();
  const [needsCode, setNeedsCode] = useState(false);
  const form = useZodForm<Values>(loginBody, { defaultValues: { email: '', password: '', totpCode: '' } });
  const { errors, isSubmitting } = form.formState;
  const failure = useFailure();
  const notAccepted = msg('This passkey was not accepted. Try again.');
  // The e-mail field's autofill offers saved passkeys from the page's load (where the browser can) until the password
  // form or the passkey button takes over; a new round offers them again after that did not sign in.
  const [offer, setOffer] = useState(0);
  const autofill = useRef<AbortController | null>(null);
  const refused = (err: unknown) => {
    failure.set(err, notAccepted);
    toast.error(errorText(err, notAccepted));
    setOffer((n) => n + 1);
  };
  // What an offer ends in, as this render has it (the offer itself starts once per round).
  const ended = useRef({ signIn: auth.signIn, refused });
  ended.current = { signIn: auth.signIn, refused };
  useEffect(() => {
    const stop = new AbortController();
    autofill.current = stop;
    import('../api/passkey-login.ts')
      .then(({ signInFromAutofill }) => signInFromAutofill(stop.signal))
      .then(
        (res) => res && ended.current.signIn(res.token, res.user),
        (err: unknown) => ended.current.refused(err),
      );
    return () => stop.abort();
  }, [offer]);

  const onValid = async (v: Values) => {
    failure.clear();
    autofill.current?.abort();
    try {
      const res = await login({
        email: v.email.trim(),
        password: v.password,
        ...(needsCode ? { totpCode: v.totpCode.trim() } : {}),
        deviceId: deviceId(),
      });
      // The sign-in page leaves for the dashboard (or the screen the session ended on) once signed in.
      auth.signIn(res.token, res.user);
    } catch (err) {
      setOffer((n) => n + 1);
      // The first answer of a two-factor account is the next step, not a failure: no error, no toast.
      if (hasCode(err, 'two_factor_required') && !needsCode) {
        setNeedsCode(true);
        return;
      }
      if (hasCode(err, 'two_factor_invalid') || hasCode(err, 'two_factor_required'))
        form.fail('totpCode', err, TEXT.loginFailed);
      else failure.set(err, TEXT.loginFailed);
      toast.error(errorText(err, TEXT.loginFailed));
    }
  };

  // Two factors in one: the passkey and the PIN or biometric that unlocked it (no authenticator code after it).
  const withPasskey = async () => {
    failure.clear();
    autofill.current?.abort();
    try {
      // Loaded when chosen: most sign-ins use the password, and the page's first load stays small.
      const { signInWithPasskey } = await import('../api/passkey-login.ts');
      const res = await signInWithPasskey();
      auth.signIn(res.token, res.user);
    } catch (err) {
      refused(err);
    }
  };

  return (
    <AuthCard title={t('Welcome Back')}>
      {auth.notice && (
        <p role="status" className="mb-4 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
          {known(auth.notice)}
        </p>
      )}
      <form
        onSubmit={form.handleSubmit(onValid, (errs) => toast.error(firstError(errs) ?? TEXT.loginFailed))}
        className="space-y-4"
        noValidate
      >
        <TextInput
          label={t('Email')}
          type="email"
          // "webauthn": the browser's autofill offers this site's passkeys here too.
          autoComplete="username webauthn"
          maxLength={MAX_LENGTH.email}
          error={errors.email?.message}
          {...form.register('email')}
        />
        <PasswordInput
          label={t('Password')}
          autoComplete="current-password"
          maxLength={MAX_LENGTH.password}
          error={errors.password?.message}
          {...form.register('password')}
        />
        {needsCode && (
          <>
            <p role="status" className="rounded-lg bg-purple-50 p-3 text-sm text-purple-950">
              {t(
                'Two-factor authentication is on for this account: enter the code from your authenticator app to finish signing in.',
              )}
            </p>
            <TextInput
              label={t('Authentication code')}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={MAX_LENGTH.authCode}
              hint={t('The 6-digit code from your authenticator app, or a recovery code.')}
              error={errors.totpCode?.message}
              autoFocus
              {...form.register('totpCode')}
            />
          </>
        )}
        {failure.text && (
          <p role="alert" className="text-sm font-medium text-red-700">
            {failure.text}
          </p>
        )}
        <Button type="submit" className="w-full" disabled={isSubmitting}>
          {isSubmitting ? t('Signing In...') : t('Sign In')}
        </Button>
      </form>
      <Button variant="secondary" className="mt-3 w-full" disabled={isSubmitting} onClick={() => void withPasskey()}>
        {t('Continue with a passkey')}
      </Button>
      <p className="mt-6 text-center text-sm text-slate-700">
        {t("Don't have an account?")}{' '}
        <Link to="/signup" className="font-semibold text-purple-800 underline-offset-2 hover:underline">
          {t('Sign up')}
        </Link>
      </p>
    </AuthCard>
  );
}
