import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminUser } from '@harvest/shared/schemas/admin';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { dateTime } from '../../../lib/format.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { toast } from '../../../lib/toast.ts';
import {
  revokeUserSessions,
  setWithdrawalsFrozen,
  userAddressesQuery,
  userSessionsQuery,
} from '../api/user-security.ts';

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
  active: 'Active',
  cooling_down: 'Cooling down',
  unconfirmed: 'Unconfirmed',
  removed: 'Removed',
} as const;
const LOCK_LABEL = { on: 'On', off: 'Off', turning_off: 'Turning off' } as const;

type Pending = 'revoke' | 'freeze' | null;

/** The user detail's security part: sessions, addresses (removed ones too), sign out all, freeze withdrawals. */
export function UserSecurity({ user, name }: { user: AdminUser; name: string }) {
  const qc = useQueryClient();
  const sessions = useQuery(userSessionsQuery(user._id));
  const addresses = useQuery(userAddressesQuery(user._id));
  const [pending, setPending] = useState<Pending>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function run() {
    setBusy(true);
    setError(null);
    try {
      const res =
        pending === 'revoke'
          ? await revokeUserSessions(user._id)
          : await setWithdrawalsFrozen(user._id, !user.withdrawalsFrozen);
      toast.success(`${res.message}: ${name}`);
      setPending(null);
      await qc.invalidateQueries({ queryKey: queryKeys.admin.users.all });
    } catch (err) {
      setError(errorText(err, 'The action failed'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="mt-3 space-y-3 rounded-xl bg-slate-50 p-4 text-sm">
      <div className="flex flex-wrap gap-2">
        <Button variant="danger" onClick={() => setPending('revoke')}>
          Sign out all sessions
        </Button>
        <Button variant={user.withdrawalsFrozen ? 'secondary' : 'danger'} onClick={() => setPending('freeze')}>
          {user.withdrawalsFrozen ? 'Unfreeze withdrawals' : 'Freeze withdrawals'}
        </Button>
      </div>
      <section aria-label={`Sessions of ${name}`}>
        <h4 className="font-semibold text-slate-800">Sessions</h4>
        <QueryState query={sessions} what="sessions" lines={2}>
          {(d) =>
            d.sessions.length === 0 ? (
              <p className="text-slate-700">No sessions.</p>
            ) : (
              <ul className="divide-y divide-slate-200">
                {d.sessions.map((s) => (
                  <li key={s._id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                    <div className="min-w-0">
                      <p className="font-medium [overflow-wrap:anywhere] text-slate-900">{s.device}</p>
                      <p className="text-xs text-slate-700">
                        {s.ip ?? 'Unknown address'} · signed in {dateTime(s.createdAt)} · last seen{' '}
                        {dateTime(s.lastSeenAt)}
                      </p>
                    </div>
                    <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${SESSION_STYLE[s.status]}`}>
                      {s.status === 'signed_out' ? 'Signed out' : s.status === 'expired' ? 'Expired' : 'Active'}
                    </span>
                  </li>
                ))}
              </ul>
            )
          }
        </QueryState>
      </section>
      <section aria-label={`Withdrawal addresses of ${name}`}>
        <h4 className="font-semibold text-slate-800">
          Withdrawal addresses
          {addresses.data && (
            <span className="ml-2 text-xs font-normal text-slate-700">
              Lock: {LOCK_LABEL[addresses.data.withdrawalLock.status]}
              {addresses.data.withdrawalLock.required ? ' (required by the platform)' : ''}
            </span>
          )}
        </h4>
        <QueryState query={addresses} what="withdrawal addresses" lines={2}>
          {(d) =>
            d.addresses.length === 0 ? (
              <p className="text-slate-700">No saved addresses.</p>
            ) : (
              <ul className="divide-y divide-slate-200">
                {d.addresses.map((a) => (
                  <li key={a._id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                    <div className="min-w-0">
                      <p className="font-medium [overflow-wrap:anywhere] text-slate-900">{a.label}</p>
                      <p className="font-mono text-xs break-all text-slate-700">{a.address}</p>
                      <p className="text-xs text-slate-700">
                        Added {dateTime(a.createdAt)}
                        {a.removedAt ? ` · removed ${dateTime(a.removedAt)}` : ` · usable from ${dateTime(a.usableAt)}`}
                      </p>
                    </div>
                    <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${ADDRESS_STYLE[a.status]}`}>
                      {ADDRESS_LABEL[a.status]}
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
            ? `Sign out every session of ${name}?`
            : `${user.withdrawalsFrozen ? 'Unfreeze' : 'Freeze'} withdrawals of ${name}?`
        }
        confirmLabel={pending === 'revoke' ? 'Sign out all' : user.withdrawalsFrozen ? 'Unfreeze' : 'Freeze'}
        destructive={pending === 'revoke' || !user.withdrawalsFrozen}
        busy={busy}
        error={error}
        onCancel={() => setPending(null)}
        onConfirm={() => void run()}
      >
        <p className="[overflow-wrap:anywhere]">
          {pending === 'revoke'
            ? `${name} (${user.email}) is signed out on every device and has to sign in again.`
            : user.withdrawalsFrozen
              ? `${name} can request withdrawals again.`
              : `${name} keeps signing in and seeing the account, but Withdraw All is refused until you unfreeze it.`}
        </p>
      </ConfirmDialog>
    </div>
  );
}
