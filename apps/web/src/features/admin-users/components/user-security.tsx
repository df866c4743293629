import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminUser } from '@harvest/shared/schemas/admin';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { useFailure } from '../../../lib/form.ts';
import { dateTime } from '../../../lib/format.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { msg } from '@harvest/shared/i18n';
import { sayDevice } from '@harvest/shared/security-texts';
import { t } from '../../../lib/i18n.tsx';
import { sayReceipt } from '../../../lib/server-text.ts';
import { toast } from '../../../lib/toast.ts';
import {
  revokeUserSessions,
  setWithdrawalsFrozen,
  userAddressesQuery,
  userSessionsQuery,
} from '../api/user-security.ts';
import { ChainValue } from '../../../components/ui/chain-value.tsx';
import { useCan } from '../../../lib/auth.tsx';

const SESSION_STYLE = {
  active: 'bg-emerald-100 text-emerald-800',
  signed_out: 'bg-slate-100 text-slate-700',
  expired: 'bg-slate-100 text-slate-700',
} as const;
const ADDRESS_STYLE = {
  active: 'bg-emerald-100 text-emerald-800',
  cooling_down: 'bg-amber-100 text-amber-900',
  unconfirmed: 'bg-slate-100 text-slate-700',
  removed: 'bg-rose-100 text-rose-800',
} as const;
const ADDRESS_LABEL = {
  active: msg('Active'),
  cooling_down: msg('Cooling down'),
  unconfirmed: msg('Unconfirmed'),
  removed: msg('Removed'),
} as const;
const LOCK_LABEL = { on: msg('On'), off: msg('Off'), turning_off: msg('Turning off') } as const;

type Pending = 'revoke' | 'freeze' | null;

/** The user detail's security part: sessions, addresses (removed ones too), sign out all, freeze withdrawals. */
export function UserSecurity({ user, name }: { user: AdminUser; name: string }) {
  const qc = useQueryClient();
  const sessions = useQuery(userSessionsQuery(user._id));
  const addresses = useQuery(userAddressesQuery(user._id));
  const [pending, setPending] = useState<Pending>(null);
  const [busy, setBusy] = useState(false);
  const failure = useFailure();
  const support = useCan('support');
  // A staff member's sessions are an owner's to end (the server refuses anyone else).
  const owner = useCan('staff');
  const mayRevoke = support && (!user.isAdmin || owner);

  async function run() {
    setBusy(true);
    failure.clear();
    try {
      const res =
        pending === 'revoke'
          ? await revokeUserSessions(user._id)
          : await setWithdrawalsFrozen(user._id, !user.withdrawalsFrozen);
      toast.success(t('{message}: {name}', { message: sayReceipt(res), name }));
      setPending(null);
      await qc.invalidateQueries({ queryKey: queryKeys.admin.users.all });
    } catch (err) {
      failure.set(err, msg('The action failed'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="mt-3 space-y-3 rounded-xl bg-slate-50 p-4 text-sm">
      {support && (
        <div className="flex flex-wrap gap-2">
          {mayRevoke && (
            <Button variant="danger" onClick={() => setPending('revoke')}>
              {t('Sign out all sessions')}
            </Button>
          )}
          <Button variant={user.withdrawalsFrozen ? 'secondary' : 'danger'} onClick={() => setPending('freeze')}>
            {user.withdrawalsFrozen ? t('Unfreeze withdrawals') : t('Freeze withdrawals')}
          </Button>
        </div>
      )}
      <section aria-label={t('Sessions of {name}', { name })}>
        <h4 className="font-semibold text-slate-800">{t('Sessions')}</h4>
        <QueryState query={sessions} what={t('sessions')} lines={2}>
          {(d) =>
            d.sessions.length === 0 ? (
              <p className="text-slate-700">{t('No sessions.')}</p>
            ) : (
              <ul className="divide-y divide-slate-200">
                {d.sessions.map((s) => (
                  <li key={s._id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                    <div className="min-w-0">
                      <p className="font-medium [overflow-wrap:anywhere] text-slate-900">{sayDevice(t, s.device)}</p>
                      <p className="text-xs text-slate-700">
                        {t('{ip} · signed in {signedIn} · last seen {lastSeen}', {
                          ip: s.ip ?? t('Unknown address'),
                          signedIn: dateTime(s.createdAt),
                          lastSeen: dateTime(s.lastSeenAt),
                        })}
                      </p>
                    </div>
                    <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${SESSION_STYLE[s.status]}`}>
                      {s.status === 'signed_out'
                        ? t('Signed out')
                        : s.status === 'expired'
                          ? t('Expired')
                          : t('Active')}
                    </span>
                  </li>
                ))}
              </ul>
            )
          }
        </QueryState>
      </section>
      <section aria-label={t('Withdrawal addresses of {name}', { name })}>
        <h4 className="font-semibold text-slate-800">
          {t('Withdrawal addresses')}
          {addresses.data && (
            <span className="ms-2 text-xs font-normal text-slate-700">
              {addresses.data.withdrawalLock.required
                ? t('Lock: {state} (required by the platform)', {
                    state: t(LOCK_LABEL[addresses.data.withdrawalLock.status]),
                  })
                : t('Lock: {state}', { state: t(LOCK_LABEL[addresses.data.withdrawalLock.status]) })}
            </span>
          )}
        </h4>
        <QueryState query={addresses} what={t('withdrawal addresses')} lines={2}>
          {(d) =>
            d.addresses.length === 0 ? (
              <p className="text-slate-700">{t('No saved addresses.')}</p>
            ) : (
              <ul className="divide-y divide-slate-200">
                {d.addresses.map((a) => (
                  <li key={a._id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                    <div className="min-w-0">
                      <p className="font-medium [overflow-wrap:anywhere] text-slate-900">{a.label}</p>
                      <p className="text-xs text-slate-700">
                        <ChainValue kind="address" value={a.address} />
                      </p>
                      <p className="text-xs text-slate-700">
                        {a.removedAt
                          ? t('Added {added} · removed {removed}', {
                              added: dateTime(a.createdAt),
                              removed: dateTime(a.removedAt),
                            })
                          : t('Added {added} · usable from {usable}', {
                              added: dateTime(a.createdAt),
                              usable: dateTime(a.usableAt),
                            })}
                      </p>
                    </div>
                    <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${ADDRESS_STYLE[a.status]}`}>
                      {t(ADDRESS_LABEL[a.status])}
                    </span>
                  </li>
                ))}
              </ul>
            )
          }
        </QueryState>
      </section>
      <ConfirmDialog
        open={pending !== null}
        title={
          pending === 'revoke'
            ? t('Sign out every session of {name}?', { name })
            : user.withdrawalsFrozen
              ? t('Unfreeze withdrawals of {name}?', { name })
              : t('Freeze withdrawals of {name}?', { name })
        }
        confirmLabel={pending === 'revoke' ? t('Sign out all') : user.withdrawalsFrozen ? t('Unfreeze') : t('Freeze')}
        destructive={pending === 'revoke' || !user.withdrawalsFrozen}
        busy={busy}
        error={failure.text}
        onCancel={() => setPending(null)}
        onConfirm={() => void run()}
      >
        <p className="[overflow-wrap:anywhere]">
          {pending === 'revoke'
            ? t('{name} ({email}) is signed out on every device and has to sign in again.', { name, email: user.email })
            : user.withdrawalsFrozen
              ? t('{name} can request withdrawals again.', { name })
              : t(
                  '{name} keeps signing in and seeing the account, but Withdraw All is refused until you unfreeze it.',
                  {
                    name,
                  },
                )}
        </p>
      </ConfirmDialog>
    </div>
  );
}
