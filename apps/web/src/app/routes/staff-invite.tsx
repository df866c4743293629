import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { messageResponse } from '@harvest/shared/schemas/common';
import { Button } from '../../components/ui/button.tsx';
import { PasswordInput } from '../../components/ui/field.tsx';
import { api, errorText } from '../../lib/api-client.ts';
import { t } from '../../lib/i18n.tsx';

/** The staff invitation's e-mailed link: the new member chooses their password (the link's secret is in the fragment). */
export function Component() {
  const { hash } = useLocation();
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    try {
      const res = await api('/security/staff-invite', messageResponse, {
        method: 'POST',
        body: { token, password, confirmPassword },
      });
      setResult({ ok: true, text: res.message });
    } catch (err) {
      setResult({ ok: false, text: errorText(err, t('Your password could not be set')) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="flex min-h-[calc(100vh-4rem)] items-start justify-center px-4 py-10 sm:items-center">
      <div className="w-full max-w-lg min-w-0 space-y-4 rounded-2xl bg-white p-6 shadow-2xl sm:p-8">
        <h1 className="text-2xl font-bold text-slate-900">{t('Join the staff')}</h1>
        {!token ? (
          <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-800">
            {t('This link is incomplete. Open it again from the e-mail.')}
          </p>
        ) : result?.ok ? (
          <>
            <p role="status" className="rounded-lg bg-emerald-50 p-3 text-sm text-emerald-900">
              {result.text}
            </p>
            <Link className="font-semibold text-purple-700 underline" to="/login">
              {t('Sign In')}
            </Link>
          </>
        ) : (
          <form onSubmit={(e) => void submit(e)} className="space-y-3">
            <p className="text-sm text-slate-700">
              {t('Choose the password you will sign in with. Then turn on the authenticator in Profile.')}
            </p>
            <PasswordInput
              label={t('Password')}
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
            <PasswordInput
              label={t('Confirm Password')}
              autoComplete="new-password"
              value={confirmPassword}
              onChange={(e) => setConfirmPassword(e.target.value)}
            />
            {result && (
              <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-800">
                {result.text}
              </p>
            )}
            <Button type="submit" disabled={busy}>
              {t('Set my password')}
            </Button>
          </form>
        )}
      </div>
    </div>
  );
}
