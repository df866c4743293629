import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'react-toastify';
import { TEXT } from '@harvest/shared/texts';
import { registerBody } from '@harvest/shared/schemas/auth';
import { Button } from '../../../components/ui/button.tsx';
import { Field, PasswordInput, TextInput, inputClass } from '../../../components/ui/field.tsx';
import { ApiError, errorText } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth.tsx';
import { register, sendCode } from '../api/auth.ts';
import { AuthCard } from './auth-card.tsx';
import { CountrySelect, dialOf } from './country-select.tsx';

const EMPTY = {
  firstName: '',
  lastName: '',
  email: '',
  verificationCode: '',
  phoneNumber: '',
  password: '',
  confirmPassword: '',
  withdrawalPassword: '',
};

/** Registration fallback of spec section 8, with the duplicate-e-mail rewrite. */
function registrationError(err: unknown): string {
  const text = errorText(err, TEXT.registrationFailed);
  return /duplicate|E11000/i.test(text) && /email/i.test(text) ? TEXT.emailExists : text;
}

export function SignupForm() {
  const auth = useAuth();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [invitationCode, setInvitationCode] = useState(params.get('code') ?? '');
  const [form, setForm] = useState(EMPTY);
  const [country, setCountry] = useState('US');
  const [busy, setBusy] = useState(false);
  const [sending, setSending] = useState(false);
  const set = (k: keyof typeof EMPTY) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [k]: e.target.value }));

  async function onSendCode() {
    if (!form.email.trim()) {
      toast.error(TEXT.emailFirst);
      return;
    }
    setSending(true);
    try {
      const res = await sendCode(form.email.trim());
      if (res.message) toast.success(res.message);
      else toast.error(TEXT.unexpectedResponse);
    } catch (err) {
      toast.error(
        err instanceof ApiError && err.status === 0 ? TEXT.somethingWrong : errorText(err, TEXT.somethingWrong),
      );
    } finally {
      setSending(false);
    }
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const body = {
      invitationCode: invitationCode.trim(),
      firstName: form.firstName,
      lastName: form.lastName,
      email: form.email.trim(),
      phone: form.phoneNumber.trim() ? `${dialOf(country)} ${form.phoneNumber.trim()}` : '',
      password: form.password,
      confirmPassword: form.confirmPassword,
      withdrawalPassword: form.withdrawalPassword,
      verificationCode: form.verificationCode.trim(),
    };
    // The same contract the server enforces: identical messages, in the same order.
    const check = registerBody.safeParse(body);
    if (!check.success) {
      toast.error(check.error.issues[0]?.message ?? TEXT.registrationFailed);
      return;
    }
    setBusy(true);
    try {
      const res = await register(body);
      auth.signIn(res.token, res.user);
      navigate('/dashboard', { replace: true });
    } catch (err) {
      toast.error(registrationError(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthCard title="Create Account">
      <form onSubmit={onSubmit} className="space-y-4" noValidate>
        <TextInput
          label="Invitation Code"
          name="invitationCode"
          value={invitationCode}
          onChange={(e) => setInvitationCode(e.target.value)}
          autoComplete="off"
        />
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <TextInput
            label="First Name"
            name="firstName"
            autoComplete="given-name"
            value={form.firstName}
            onChange={set('firstName')}
          />
          <TextInput
            label="Last Name"
            name="lastName"
            autoComplete="family-name"
            value={form.lastName}
            onChange={set('lastName')}
          />
        </div>
        <Field label="Email">
          {(id) => (
            <div className="flex gap-2">
              <input
                id={id}
                name="email"
                type="email"
                autoComplete="email"
                className={inputClass}
                value={form.email}
                onChange={set('email')}
              />
              <Button variant="secondary" onClick={onSendCode} disabled={sending} className="shrink-0">
                {sending ? 'Sending...' : 'Send Otp'}
              </Button>
            </div>
          )}
        </Field>
        <TextInput
          label="Verification Code"
          name="verificationCode"
          inputMode="numeric"
          autoComplete="one-time-code"
          value={form.verificationCode}
          onChange={set('verificationCode')}
        />
        <Field label="Phone Number">
          {(id) => (
            <div className="flex gap-2">
              <CountrySelect value={country} onChange={setCountry} />
              <input
                id={id}
                name="phone"
                type="tel"
                autoComplete="tel-national"
                className={inputClass}
                value={form.phoneNumber}
                onChange={set('phoneNumber')}
              />
            </div>
          )}
        </Field>
        <PasswordInput
          label="Password"
          name="password"
          autoComplete="new-password"
          value={form.password}
          onChange={set('password')}
        />
        <PasswordInput
          label="Confirm Password"
          name="confirmPassword"
          autoComplete="new-password"
          value={form.confirmPassword}
          onChange={set('confirmPassword')}
        />
        <PasswordInput
          label="Withdrawal Password"
          name="withdrawalPassword"
          autoComplete="new-password"
          hint="Use a password different from your login password: it is more secure and is asked for every withdrawal."
          value={form.withdrawalPassword}
          onChange={set('withdrawalPassword')}
        />
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? 'Creating Account...' : 'Create Account'}
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-slate-600">
        Already have an account?{' '}
        <Link to="/login" className="font-semibold text-purple-700 hover:underline">
          Sign in
        </Link>
      </p>
    </AuthCard>
  );
}
