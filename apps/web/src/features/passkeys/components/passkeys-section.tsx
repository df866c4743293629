import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { MAX_LENGTH } from '@harvest/shared/constants';
import { msg } from '@harvest/shared/i18n';
import { Button } from '../../../components/ui/button.tsx';
import { PasswordInput, TextInput } from '../../../components/ui/field.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth.tsx';
import { dateTime } from '../../../lib/format.ts';
import { t } from '../../../lib/i18n.tsx';
import { passkeysQuery } from '../../../lib/passkey.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { sayReceipt } from '../../../lib/server-text.ts';
import { toast } from '../../../lib/toast.ts';
import { addPasskey, removePasskey } from '../api/passkeys.ts';

type Step = { kind: 'idle' } | { kind: 'name' } | { kind: 'remove'; id: string; name: string };

/** Profile: the account's passkeys (sign-in and confirming money out), added on this device or removed. */
export function PasskeysSection() {
  const { user } = useAuth();
  const qc = useQueryClient();
  const query = useQuery(passkeysQuery());
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);

  // Adding and removing a passkey both ask for the password, and the code when it is on: a session alone is not
  // enough to change how the account is signed in to.
  const secrets = (
    <>
      <PasswordInput
        label={t('Password')}
        autoComplete="current-password"
        maxLength={MAX_LENGTH.password}
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      {user?.twoFactorEnabled && (
        <TextInput
          label={t('Authentication or recovery code')}
          autoComplete="one-time-code"
          maxLength={MAX_LENGTH.authCode}
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
      )}
    </>
  );

  async function run(action: () => Promise<{ message: string }>, failed: string) {
    setBusy(true);
    try {
      toast.success(sayReceipt(await action()));
      setStep({ kind: 'idle' });
      setName('');
      setPassword('');
      setCode('');
      await qc.invalidateQueries({ queryKey: queryKeys.account.all });
    } catch (err) {
      toast.error(errorText(err, failed));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="passkeys-title" className="space-y-3 rounded-lg border border-slate-200 p-3 text-sm">
      <h3 id="passkeys-title" className="font-semibold text-slate-800">
        {t('Passkeys')}
      </h3>
      <p className="text-slate-700">
        {t('A passkey signs you in without a password and confirms withdrawals; a phishing page cannot use it.')}
      </p>
      <QueryState query={query} what={t('your passkeys')} lines={2}>
        {(data) =>
          data.passkeys.length === 0 ? (
            <p className="text-slate-700">{t('No passkey yet.')}</p>
          ) : (
            <ul className="divide-y divide-slate-100">
              {data.passkeys.map((p) => (
                <li key={p._id} className="flex flex-wrap items-start justify-between gap-2 py-2">
                  <div className="min-w-0 flex-1">
                    <p className="font-medium [overflow-wrap:anywhere] text-slate-900">{p.name}</p>
                    <p className="text-xs text-slate-700">
                      {t('Added {added} · last used {used}', {
                        added: dateTime(p.createdAt),
                        used: p.lastUsedAt ? dateTime(p.lastUsedAt) : t('never'),
                      })}
                    </p>
                  </div>
                  <Button variant="secondary" onClick={() => setStep({ kind: 'remove', id: p._id, name: p.name })}>
                    {t('Remove')}
                  </Button>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
      {step.kind === 'idle' && (
        <Button variant="secondary" onClick={() => setStep({ kind: 'name' })}>
          {t('Add a passkey')}
        </Button>
      )}
      {step.kind === 'name' && (
        <form
          className="space-y-2"
          noValidate
          aria-label={t('Add a passkey')}
          onSubmit={(e) => {
            e.preventDefault();
            void run(
              () => addPasskey(name.trim(), password, code.trim() || undefined),
              msg('The passkey could not be registered. Try again.'),
            );
          }}
        >
          <TextInput
            label={t('Passkey name')}
            hint={t('For example: My phone')}
            maxLength={MAX_LENGTH.passkeyName}
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
          {secrets}
          <div className="flex gap-2">
            <Button variant="secondary" onClick={() => setStep({ kind: 'idle' })}>
              {t('Cancel')}
            </Button>
            <Button type="submit" disabled={busy}>
              {t('Create passkey')}
            </Button>
          </div>
        </form>
      )}
      {step.kind === 'remove' && (
        <form
          className="space-y-2"
          noValidate
          aria-label={t('Remove passkey {name}', { name: step.name })}
          onSubmit={(e) => {
            e.preventDefault();
            void run(
              () => removePasskey(step.id, password, code.trim() || undefined),
              msg('Could not remove the passkey'),
            );
          }}
        >
          <p className="[overflow-wrap:anywhere] text-slate-700">{t('Remove passkey {name}', { name: step.name })}</p>
          {secrets}
          <div className="flex gap-2">
            <Button variant="secondary" onClick={() => setStep({ kind: 'idle' })}>
              {t('Cancel')}
            </Button>
            <Button type="submit" variant="danger" disabled={busy}>
              {t('Remove')}
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}
