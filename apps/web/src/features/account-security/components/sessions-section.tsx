import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from '../../../components/ui/button.tsx';
import { Pager } from '../../../components/ui/pager.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { usePagedQuery } from '../../../lib/use-paged-query.ts';
import { errorText } from '../../../lib/api-client.ts';
import { dateTime } from '../../../lib/format.ts';
import { sayDevice } from '@harvest/shared/security-texts';
import { t } from '../../../lib/i18n.tsx';
import { sayReceipt } from '../../../lib/server-text.ts';
import { toast } from '../../../lib/toast.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { PAGE_SIZE, revokeOtherSessions, revokeSession, sessionsQuery } from '../api/security.ts';

/** Profile: where the account is signed in, with "Sign out" per session and "Sign out all others". */
export function SessionsSection() {
  const qc = useQueryClient();
  const [busy, setBusy] = useState(false);
  const list = usePagedQuery(sessionsQuery, { pageSize: PAGE_SIZE, total: (d) => d.pagination.total });
  const query = list.query;

  async function run(action: () => Promise<{ message: string }>, failed: string) {
    setBusy(true);
    try {
      toast.success(sayReceipt(await action()));
      await qc.invalidateQueries({ queryKey: queryKeys.account.all });
    } catch (err) {
      toast.error(errorText(err, failed));
    } finally {
      setBusy(false);
    }
  }

  const others = (query.data?.pagination.total ?? 0) > 1;
  return (
    <section aria-labelledby="sessions-title" className="space-y-3 rounded-lg border border-slate-200 p-3 text-sm">
      <h3 id="sessions-title" className="font-semibold text-slate-800">
        {t('Where you are signed in')}
      </h3>
      <QueryState query={query} what={t('your sessions')} lines={2}>
        {(data) => (
          <ul className="divide-y divide-slate-100">
            {data.sessions.map((s) => (
              <li key={s._id} className="flex flex-wrap items-start justify-between gap-2 py-2">
                <div className="min-w-0 flex-1">
                  <p className="font-medium [overflow-wrap:anywhere] text-slate-900">
                    {sayDevice(t, s.device)}
                    {s.current && (
                      <span className="ms-2 rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-800">
                        {t('This device')}
                      </span>
                    )}
                  </p>
                  <p className="text-xs text-slate-700">
                    {t('{ip} · signed in {signedIn} · last active {lastActive}', {
                      ip: s.ip ?? t('Unknown address'),
                      signedIn: dateTime(s.createdAt),
                      lastActive: dateTime(s.lastSeenAt),
                    })}
                  </p>
                </div>
                {!s.current && (
                  <Button
                    variant="danger"
                    disabled={busy}
                    aria-label={t('Sign out {device}, signed in {at}', {
                      device: sayDevice(t, s.device),
                      at: dateTime(s.createdAt),
                    })}
                    onClick={() => void run(() => revokeSession(s._id), t('Could not sign the session out'))}
                  >
                    {t('Sign out')}
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </QueryState>
      <Pager label={t('Session pages')} {...list.pager} onLight />
      {others && (
        <Button
          variant="secondary"
          disabled={busy}
          onClick={() => void run(revokeOtherSessions, t('Could not sign the other sessions out'))}
        >
          {t('Sign out all others')}
        </Button>
      )}
    </section>
  );
}
