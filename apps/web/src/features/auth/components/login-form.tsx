import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { TEXT } from '@harvest/shared/texts';
import { Button } from '../../../components/ui/button.tsx';
import { PasswordInput, TextInput } from '../../../components/ui/field.tsx';
import { errorText, hasCode } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth.tsx';
import { login } from '../api/auth.ts';
import { AuthCard } from './auth-card.tsx';

export function LoginForm() {
  const auth = useAuth();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [needsCode, setNeedsCode] = useState(false);
  const [totpCode, setTotpCode] = useState('');

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!email.trim() || !password) {
      toast.error(TEXT.loginRequired);
      return;
    }
    setBusy(true);
    try {
      const res = await login({ email: email.trim(), password, ...(needsCode ? { totpCode: totpCode.trim() } : {}) });
      auth.signIn(res.token, res.user);
      navigate('/dashboard', { replace: true });
    } catch (err) {
      if (hasCode(err, 'two_factor_required')) setNeedsCode(true);
      toast.error(errorText(err, TEXT.loginFailed));
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthCard title="Welcome Back">
      <form onSubmit={onSubmit} className="space-y-4" noValidate>
        <TextInput
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <PasswordInput
          label="Password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        {needsCode && (
          <TextInput
            label="Authentication code"
            name="totpCode"
            inputMode="numeric"
            autoComplete="one-time-code"
            hint="The 6-digit code from your authenticator app, or a recovery code."
            value={totpCode}
            onChange={(e) => setTotpCode(e.target.value)}
            autoFocus
          />
        )}
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? 'Signing In...' : 'Sign In'}
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-slate-600">
        Don&apos;t have an account?{' '}
        <Link to="/signup" className="font-semibold text-purple-700 hover:underline">
          Sign up
        </Link>
      </p>
    </AuthCard>
  );
}
