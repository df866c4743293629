import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { SecurityEventType } from '@harvest/shared/schemas/security';
import { Pager } from '../../../components/ui/pager.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { dateTime } from '../../../lib/format.ts';
import { eventsQuery, PAGE_SIZE } from '../api/security.ts';

const LABELS: Record<SecurityEventType, string> = {
  sign_in: 'Signed in',
  sign_in_failed: 'Failed sign-in',
  password_changed: 'Password changed',
  email_changed: 'E-mail changed',
  address_added: 'Withdrawal address added',
  address_confirmed: 'Withdrawal address confirmed',
  address_removed: 'Withdrawal address removed',
  session_revoked: 'Session signed out',
  sessions_revoked: 'Sessions signed out',
  two_factor_enabled: 'Authenticator turned on',
  two_factor_disabled: 'Authenticator turned off',
  withdrawal_lock_on: 'Address lock turned on',
  withdrawal_lock_off_requested: 'Address lock off asked',
  withdrawal_lock_off_confirmed: 'Address lock off confirmed',
  not_me: '"This wasn\'t me" reported',
  withdrawals_frozen: 'Withdrawals frozen',
  withdrawals_unfrozen: 'Withdrawals unfrozen',
};
const ALARM = new Set<SecurityEventType>(['sign_in_failed', 'not_me', 'withdrawals_frozen']);

/** Profile: the newest security events of the account (the server keeps it to the last 50), paged. */
export function SecurityActivity() {
  const [page, setPage] = useState(1);
  const query = useQuery({ ...eventsQuery(page), placeholderData: keepPreviousData });
  return (
    <section aria-labelledby="activity-title" className="space-y-3 rounded-lg border border-slate-200 p-3 text-sm">
      <h3 id="activity-title" className="font-semibold text-slate-800">
        Security activity
      </h3>
      <QueryState query={query} what="your security activity" lines={3}>
        {(data) =>
          data.events.length === 0 ? (
            <p className="text-slate-700">Nothing yet.</p>
          ) : (
            <ol className="divide-y divide-slate-100">
              {data.events.map((e, i) => (
                <li key={`${e.at}-${i}`} className="py-2">
                  <p className="flex flex-wrap justify-between gap-x-2">
                    <span className={`font-medium ${ALARM.has(e.type) ? 'text-red-800' : 'text-slate-900'}`}>
                      {LABELS[e.type]}
                    </span>
                    <time dateTime={e.at} className="text-xs text-slate-700">
                      {dateTime(e.at)}
                    </time>
                  </p>
                  {e.detail && <p className="[overflow-wrap:anywhere] text-slate-800">{e.detail}</p>}
                  {(e.device || e.ip) && (
                    <p className="text-xs text-slate-700">{[e.device, e.ip].filter(Boolean).join(' · ')}</p>
                  )}
                </li>
              ))}
            </ol>
          )
        }
      </QueryState>
      <Pager
        label="Security activity pages"
        at={{ page }}
        pages={Math.ceil((query.data?.pagination.total ?? 0) / PAGE_SIZE)}
        cursors={undefined}
        busy={query.isPlaceholderData}
        onGo={(at) => setPage(at.page)}
        onLight
      />
    </section>
  );
}
