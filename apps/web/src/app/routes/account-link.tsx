import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { LinkPage, LinkPreview } from '@harvest/shared/schemas/security';
import { msg } from '@harvest/shared/i18n';
import { Button } from '../../components/ui/button.tsx';
import { Skeleton } from '../../components/ui/query-state.tsx';
import { errorText } from '../../lib/api-client.ts';
import { rememberWhere, useAuth } from '../../lib/auth.tsx';
import { dateTime } from '../../lib/format.ts';
import { t, useLingui } from '../../lib/i18n.tsx';
import { sayReceipt } from '../../lib/server-text.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { linkPreviewQuery, reportNotMe } from '../../features/account-security/api/security.ts';
import { confirmAddress, confirmLockOff } from '../../features/withdrawals/api/address-book.ts';

type Kind = LinkPage;

const PAGES: Record<Kind, { title: string; lead: string; action: string; needsSession: boolean }> = {
  'confirm-address': {
    title: msg('Confirm a withdrawal address'),
    lead: msg(
      'Confirm the address you added to your address book. It becomes usable once its waiting period has ended.',
    ),
    action: msg('Confirm this address'),
    needsSession: true,
  },
  'confirm-lock-off': {
    title: msg('Turn off the withdrawal address lock'),
    lead: msg(
      'Confirm that the withdrawal address lock should turn off. It stays on for the waiting period after you confirm.',
    ),
    action: msg('Confirm: turn the lock off'),
    needsSession: true,
  },
  'not-me': {
    title: msg('Secure your account'),
    lead: msg(
      'If you did not do what the e-mail describes, secure your account now: every session is signed out (yours too), every passkey is removed and withdrawals are frozen until support lifts the freeze.',
    ),
    action: msg('Secure my account'),
    needsSession: false,
  },
};

/**
 * The pages the security e-mails link to. The link's secret travels in the fragment (never sent to a server or
 * logged by one); nothing happens until the person presses the button, so a mail scanner that opens links
 * confirms nothing. Confirming needs the session of the account the mail was sent to; "this wasn't me" does not.
 */
export function Component() {
  const { pathname, hash } = useLocation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const { status, user, setUser, refresh } = useAuth();
  const kind = pathname.slice(1) as Kind;
  const page = PAGES[kind];
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token') ?? '';
  // What the link did, said where it is drawn: a language change says it again.
  useLingui();
  const [result, setResult] = useState<{ ok: boolean; say: () => string } | null>(null);
  const [busy, setBusy] = useState(false);
  // What the button will do, read before it is pressed (a dead link says so here, with no button).
  const preview = useQuery({ ...linkPreviewQuery(kind, token), enabled: Boolean(token) && !result });

  async function go() {
    setBusy(true);
    try {
      if (kind === 'confirm-address') {
        const res = await confirmAddress(token);
        const when = () =>
          res.address.status === 'active'
            ? t('It is usable now.')
            : t('It is usable from {at}.', { at: dateTime(res.address.usableAt) });
        setResult({
          ok: true,
          say: () =>
            t('{message}: {label} ({address}). {when}', {
              message: sayReceipt(res),
              label: res.address.label,
              address: res.address.address,
              when: when(),
            }),
        });
      } else if (kind === 'confirm-lock-off') {
        const res = await confirmLockOff(token);
        if (user) setUser({ ...user, withdrawalLock: res.withdrawalLock });
        setResult({ ok: true, say: () => sayReceipt(res) });
      } else {
        const res = await reportNotMe(token);
        setResult({ ok: true, say: () => sayReceipt(res) });
        // This browser's session was signed out too.
        if (status === 'authenticated') await refresh();
      }
      await qc.invalidateQueries({ queryKey: queryKeys.account.all });
    } catch (err) {
      setResult({ ok: false, say: () => errorText(err, msg('This link could not be used.')) });
    } finally {
      setBusy(false);
    }
  }

  const signInFirst = page.needsSession && status !== 'authenticated';
  return (
    <div className="flex min-h-[calc(100vh-4rem)] items-start justify-center px-4 py-10 sm:items-center">
      <div className="w-full max-w-lg min-w-0 space-y-4 rounded-2xl bg-white p-6 shadow-2xl sm:p-8">
        <h1 className="text-2xl font-bold text-slate-900">{t(page.title)}</h1>
        {!token ? (
          <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-800">
            {t('This link is incomplete. Open it again from the e-mail.')}
          </p>
        ) : result ? (
          <p
            role={result.ok ? 'status' : 'alert'}
            className={`rounded-lg p-3 text-sm [overflow-wrap:anywhere] ${result.ok ? 'bg-emerald-50 text-emerald-900' : 'bg-red-50 text-red-800'}`}
          >
            {result.say()}
          </p>
        ) : preview.isError ? (
          <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-800">
            {errorText(preview.error, msg('This link could not be used.'))}
          </p>
        ) : !preview.data ? (
          <Skeleton label={t('Reading the link...')} />
        ) : (
          <>
            <p className="text-slate-700">{t(page.lead)}</p>
            <LinkDetails kind={kind} preview={preview.data} />
            {signInFirst ? (
              <>
                <p className="text-sm text-slate-700">
                  {t('Sign in with the account the e-mail was sent to, then confirm.')}
                </p>
                <Button
                  onClick={() => {
                    rememberWhere();
                    navigate('/login');
                  }}
                >
                  {t('Sign in to confirm')}
                </Button>
              </>
            ) : (
              <Button variant={kind === 'not-me' ? 'danger' : 'primary'} onClick={() => void go()} disabled={busy}>
                {busy ? t('Working...') : t(page.action)}
              </Button>
            )}
          </>
        )}
        <p className="text-sm">
          <Link
            className="font-semibold text-purple-800 underline"
            to={status === 'authenticated' ? '/dashboard' : '/login'}
          >
            {status === 'authenticated' ? t('Go to your dashboard') : t('Go to sign in')}
          </Link>
        </p>
      </div>
    </div>
  );
}

/** The address, the sign-in or the lock change the button acts on, and when the e-mail was sent. */
function LinkDetails({ kind, preview: p }: { kind: Kind; preview: LinkPreview }) {
  const rows: [string, string, string?][] = [];
  if (p.address) {
    rows.push([t('Label'), p.address.label], [t('Address'), p.address.address, 'font-mono text-xs']);
    if (kind === 'confirm-address') rows.push([t('Usable from'), dateTime(p.address.usableAt)]);
  }
  if (p.session) {
    rows.push([t('Device'), p.session.device], [t('Signed in'), dateTime(p.session.signedInAt)]);
    if (p.session.ip) rows.push([t('IP address'), p.session.ip]);
  }
  rows.push([t('E-mail sent'), dateTime(p.sentAt)]);
  return (
    <>
      {p.address && kind === 'not-me' && (
        <p className="text-sm text-slate-700">{t('This address is removed from your address book:')}</p>
      )}
      {p.session && <p className="text-sm text-slate-700">{t('This sign-in is signed out:')}</p>}
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-lg bg-slate-50 p-3 text-sm">
        {rows.map(([label, value, cls]) => (
          <div key={label} className="contents">
            <dt className="text-slate-600">{label}</dt>
            <dd className={`min-w-0 text-slate-900 ${cls ?? ''}`} dir={cls ? 'ltr' : undefined}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      {p.lockOffHours !== undefined && (
        <p className="text-sm text-slate-700">
          {t('After you confirm, the lock stays on for {hours} hours; then Withdraw All may pay to any address.', {
            hours: p.lockOffHours,
          })}
        </p>
      )}
    </>
  );
}
