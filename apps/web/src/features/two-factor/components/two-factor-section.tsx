import { useState } from 'react';
import { toast } from '../../../lib/toast.ts';
import { Button } from '../../../components/ui/button.tsx';
import { PasswordInput, TextInput } from '../../../components/ui/field.tsx';
import { errorText, hasCode, tokenStore } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth.tsx';
import { disableTwoFactor, enableTwoFactor, setupTwoFactor } from '../api/two-factor.ts';

type Step =
  | { kind: 'idle' }
  | { kind: 'password' }
  | { kind: 'scan'; secret: string; qr: string }
  | { kind: 'codes'; codes: string[] }
  | { kind: 'disable' };

/** Authenticator-app sign-in (TOTP): enrol with a QR code, keep the recovery codes, or turn it off. */
export function TwoFactorSection() {
  const { user, setUser } = useAuth();
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  // Errors show here, in the dialog, at the field they concern (and in a toast).
  const [error, setError] = useState<{ field: 'password' | 'code'; text: string } | null>(null);
  if (!user) return null;
  const fail = (err: unknown, fallback: string) => {
    const text = errorText(err, fallback);
    setError({ field: hasCode(err, 'wrong_password') || /password/i.test(text) ? 'password' : 'code', text });
    toast.error(text);
  };
  const errorFor = (field: 'password' | 'code') => (error?.field === field ? error.text : undefined);

  async function start() {
    setBusy(true);
    setError(null);
    try {
      const res = await setupTwoFactor(password);
      const QR = await import('qrcode');
      setStep({ kind: 'scan', secret: res.secret, qr: await QR.toDataURL(res.otpauthUrl, { width: 200, margin: 1 }) });
    } catch (err) {
      fail(err, 'Could not start two-factor set-up');
    } finally {
      setBusy(false);
    }
  }

  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      const res = await enableTwoFactor(password, code.trim());
      tokenStore.set(res.token);
      setCode('');
      setPassword('');
      // On at once: the badge must not say Off while the recovery codes are shown.
      if (user) setUser({ ...user, twoFactorEnabled: true });
      setStep({ kind: 'codes', codes: res.recoveryCodes });
    } catch (err) {
      fail(err, 'Invalid authentication code');
    } finally {
      setBusy(false);
    }
  }

  async function turnOff() {
    setBusy(true);
    setError(null);
    try {
      const res = await disableTwoFactor(password, code.trim());
      tokenStore.set(res.token);
      setStep({ kind: 'idle' });
      setCode('');
      setPassword('');
      if (user) setUser({ ...user, twoFactorEnabled: false });
      toast.success(res.message);
    } catch (err) {
      fail(err, 'Could not turn off two-factor authentication');
    } finally {
      setBusy(false);
    }
  }

  return (
    <section
      aria-label="Two-factor authentication"
      className="space-y-3 rounded-lg border border-slate-200 p-3 text-sm"
    >
      <div className="flex items-center justify-between gap-2">
        <p className="font-semibold text-slate-800">Two-factor authentication</p>
        <span
          className={`rounded-full px-2 py-0.5 text-xs font-bold ${user.twoFactorEnabled ? 'bg-emerald-100 text-emerald-800' : 'bg-slate-100 text-slate-700'}`}
        >
          {user.twoFactorEnabled ? 'On' : 'Off'}
        </span>
      </div>
      {step.kind === 'idle' && !user.twoFactorEnabled && (
        <Button variant="secondary" onClick={() => setStep({ kind: 'password' })}>
          Turn on with an authenticator app
        </Button>
      )}
      {step.kind === 'password' && (
        <div className="space-y-2">
          <PasswordInput
            label="Password"
            value={password}
            error={errorFor('password')}
            onChange={(e) => setPassword(e.target.value)}
            autoComplete="current-password"
          />
          <div className="flex gap-2">
            <Button variant="secondary" onClick={() => setStep({ kind: 'idle' })}>
              Cancel
            </Button>
            <Button onClick={start} disabled={busy}>
              Continue
            </Button>
          </div>
        </div>
      )}
      {step.kind === 'idle' && user.twoFactorEnabled && (
        <Button variant="secondary" onClick={() => setStep({ kind: 'disable' })}>
          Turn off
        </Button>
      )}
      {step.kind === 'scan' && (
        <div className="space-y-2">
          <p className="text-slate-700">
            Scan this code with your authenticator app, then enter the 6-digit code it shows.
          </p>
          <img src={step.qr} alt="Authenticator QR code" width={200} height={200} className="mx-auto" />
          <p className="text-center font-mono text-xs break-all text-slate-700">{step.secret}</p>
          <TextInput
            label="Authentication code"
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            error={errorFor('code')}
            onChange={(e) => setCode(e.target.value)}
          />
          <Button onClick={confirm} disabled={busy}>
            Confirm
          </Button>
        </div>
      )}
      {step.kind === 'codes' && (
        <div className="space-y-2">
          <p className="font-semibold text-amber-800">
            Save these recovery codes now. Each works once if you lose your authenticator.
          </p>
          <ul data-testid="recovery-codes" className="grid grid-cols-2 gap-1 font-mono text-xs">
            {step.codes.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
          <Button onClick={() => setStep({ kind: 'idle' })}>I saved them</Button>
        </div>
      )}
      {step.kind === 'disable' && (
        <div className="space-y-2">
          <PasswordInput
            label="Password"
            value={password}
            error={errorFor('password')}
            onChange={(e) => setPassword(e.target.value)}
            autoComplete="current-password"
          />
          <TextInput
            label="Authentication or recovery code"
            value={code}
            error={errorFor('code')}
            onChange={(e) => setCode(e.target.value)}
            autoComplete="one-time-code"
          />
          <div className="flex gap-2">
            <Button variant="secondary" onClick={() => setStep({ kind: 'idle' })}>
              Cancel
            </Button>
            <Button variant="danger" onClick={turnOff} disabled={busy}>
              Turn off
            </Button>
          </div>
        </div>
      )}
    </section>
  );
}
