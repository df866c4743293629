import { useState } from 'react';
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
import { firstError, useZodForm } from '../../../lib/form.ts';
import { login } from '../api/auth.ts';
import { AuthCard } from './auth-card.tsx';

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

  const onValid = async (v: Values) => {
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
      // The first answer of a two-factor account is the next step, not a failure: no error, no toast.
      if (hasCode(err, 'two_factor_required') && !needsCode) {
        setNeedsCode(true);
        return;
      }
      const text = errorText(err, TEXT.loginFailed);
      if (hasCode(err, 'two_factor_invalid') || hasCode(err, 'two_factor_required'))
        form.setError('totpCode', { message: text });
      else form.setError('root', { message: text });
      toast.error(text);
    }
  };

  return (
    <AuthCard title="Welcome Back">
      {auth.notice && (
        <p role="status" className="mb-4 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
          {auth.notice}
        </p>
      )}
      <form
        onSubmit={form.handleSubmit(onValid, (errs) => toast.error(firstError(errs) ?? TEXT.loginFailed))}
        className="space-y-4"
        noValidate
      >
        <TextInput
          label="Email"
          type="email"
          autoComplete="email"
          maxLength={MAX_LENGTH.email}
          error={errors.email?.message}
          {...form.register('email')}
        />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          maxLength={MAX_LENGTH.password}
          error={errors.password?.message}
          {...form.register('password')}
        />
        {needsCode && (
          <>
            <p role="status" className="rounded-lg bg-purple-50 p-3 text-sm text-purple-950">
              Two-factor authentication is on for this account: enter the code from your authenticator app to finish
              signing in.
            </p>
            <TextInput
              label="Authentication code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={MAX_LENGTH.authCode}
              hint="The 6-digit code from your authenticator app, or a recovery code."
              error={errors.totpCode?.message}
              autoFocus
              {...form.register('totpCode')}
            />
          </>
        )}
        {errors.root?.message && (
          <p role="alert" className="text-sm font-medium text-red-700">
            {errors.root.message}
          </p>
        )}
        <Button type="submit" className="w-full" disabled={isSubmitting}>
          {isSubmitting ? 'Signing In...' : 'Sign In'}
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-slate-700">
        Don&apos;t have an account?{' '}
        <Link to="/signup" className="font-semibold text-purple-800 underline-offset-2 hover:underline">
          Sign up
        </Link>
      </p>
    </AuthCard>
  );
}
