import type { SecurityEventType } from '@harvest/shared/schemas/security';
import { Pager } from '../../../components/ui/pager.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { usePagedQuery } from '../../../lib/use-paged-query.ts';
import { dateTime } from '../../../lib/format.ts';
import { msg } from '@harvest/shared/i18n';
import { sayDevice } from '@harvest/shared/security-texts';
import { t } from '../../../lib/i18n.tsx';
import { StoredText } from '../../../components/ui/stored-text.tsx';
import { eventsQuery, PAGE_SIZE } from '../api/security.ts';

const LABELS: Record<SecurityEventType, string> = {
  sign_in: msg('Signed in'),
  sign_in_failed: msg('Failed sign-in'),
  password_changed: msg('Password changed'),
  withdrawal_password_changed: msg('Withdrawal password changed'),
  email_changed: msg('E-mail changed'),
  address_added: msg('Withdrawal address added'),
  address_confirmed: msg('Withdrawal address confirmed'),
  address_removed: msg('Withdrawal address removed'),
  session_revoked: msg('Session signed out'),
  sessions_revoked: msg('Sessions signed out'),
  two_factor_enabled: msg('Authenticator turned on'),
  two_factor_disabled: msg('Authenticator turned off'),
  passkey_added: msg('Passkey added'),
  passkey_removed: msg('Passkey removed'),
  last_passkey_removed: msg('Last passkey removed'),
  password_sign_in_new_device: msg('Password sign-in on a new device'),
  withdrawal_lock_on: msg('Address lock turned on'),
  withdrawal_lock_off_requested: msg('Address lock off asked'),
  withdrawal_lock_off_confirmed: msg('Address lock off confirmed'),
  not_me: msg('"This wasn\'t me" reported'),
  withdrawals_frozen: msg('Withdrawals frozen'),
  withdrawals_unfrozen: msg('Withdrawals unfrozen'),
};
const ALARM = new Set<SecurityEventType>(['sign_in_failed', 'not_me', 'withdrawals_frozen']);

/** Profile: the newest security events of the account (the server keeps it to the last 50), paged. */
export function SecurityActivity() {
  const list = usePagedQuery(eventsQuery, { pageSize: PAGE_SIZE, total: (d) => d.pagination.total });
  const query = list.query;
  return (
    <section aria-labelledby="activity-title" className="space-y-3 rounded-lg border border-slate-200 p-3 text-sm">
      <h3 id="activity-title" className="font-semibold text-slate-800">
        {t('Security activity')}
      </h3>
      <QueryState query={query} what={t('your security activity')} lines={3}>
        {(data) =>
          data.events.length === 0 ? (
            <p className="text-slate-700">{t('Nothing yet.')}</p>
          ) : (
            <ol className="divide-y divide-slate-100">
              {data.events.map((e, i) => (
                <li key={`${e.at}-${i}`} className="py-2">
                  <p className="flex flex-wrap justify-between gap-x-2">
                    <span className={`font-medium ${ALARM.has(e.type) ? 'text-red-800' : 'text-slate-900'}`}>
                      {t(LABELS[e.type])}
                    </span>
                    <time dateTime={e.at} className="text-xs text-slate-700">
                      {dateTime(e.at)}
                    </time>
                  </p>
                  {e.detail && (
                    <p className="[overflow-wrap:anywhere] text-slate-800">
                      <StoredText text={e.detail} said={e.detailSaid} />
                    </p>
                  )}
                  {(e.device || e.ip) && (
                    <p className="text-xs text-slate-700">
                      {[e.device && sayDevice(t, e.device), e.ip].filter(Boolean).join(' · ')}
                    </p>
                  )}
                </li>
              ))}
            </ol>
          )
        }
      </QueryState>
      <Pager label={t('Security activity pages')} {...list.pager} onLight />
    </section>
  );
}
