import { useState } from 'react';
import * as Menu from '@radix-ui/react-dropdown-menu';
import { useNavigate } from 'react-router';
import { Button } from '../components/ui/button.tsx';
import { useAuth } from '../lib/auth.tsx';
import { InviteDialog } from '../features/invitation/components/invite-dialog.tsx';
import { ProfileDialog } from '../features/profile/components/profile-dialog.tsx';
import { TwoFactorSection } from '../features/two-factor/components/two-factor-section.tsx';
import { PasskeysSection } from '../features/passkeys/components/passkeys-section.tsx';
import { AddressBookSection } from '../features/withdrawals/components/address-book.tsx';
import { SecurityActivity } from '../features/account-security/components/security-activity.tsx';
import { SessionsSection } from '../features/account-security/components/sessions-section.tsx';
import { MyWithdrawalLimits } from '../features/withdrawal-limits/components/my-withdrawal-limits.tsx';
import { WithdrawalLockSection } from '../features/withdrawals/components/withdrawal-lock-section.tsx';
import { WithdrawalPasswordSection } from '../features/profile/components/withdrawal-password-section.tsx';
import { Email } from '../components/ui/email.tsx';
import { t } from '../lib/i18n.tsx';

/** Invite, and the profile menu (Radix: arrow keys, Escape, focus returned) with Edit Profile and Logout. */
export default function UserControls() {
  const { user, logout } = useAuth();
  const navigate = useNavigate();
  const [inviteOpen, setInviteOpen] = useState(false);
  const [profileOpen, setProfileOpen] = useState(false);

  if (!user) return null;
  const initials = `${user.firstName[0] ?? ''}${user.lastName[0] ?? ''}`.toUpperCase();
  return (
    <div className="flex items-center gap-2">
      {/* On a phone an icon (the header also holds the language menu); the word stays the button's name. */}
      <Button variant="secondary" className="px-3 sm:px-4" onClick={() => setInviteOpen(true)}>
        <svg
          aria-hidden="true"
          className="sm:hidden"
          viewBox="0 0 24 24"
          width="18"
          height="18"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
        >
          <circle cx="9" cy="8" r="4" />
          <path d="M2 21c0-4 3-7 7-7s7 3 7 7M19 8v6M16 11h6" />
        </svg>
        <span className="sr-only sm:not-sr-only">{t('Invite')}</span>
      </Button>
      {/* Radix menu: arrow keys move between items, Escape closes, focus returns to the button. Not modal and
          not portalled: a modal menu hid the page (aria-hidden over focusable links) and a portalled one sat
          outside every landmark, both axe violations; inside the banner it belongs to the top bar. */}
      <Menu.Root modal={false}>
        <Menu.Trigger
          // The name holds the initials the button shows (WCAG 2.5.3, label in name): "click AH" works by voice too.
          aria-label={t('Profile menu, {initials}', { initials })}
          className="flex h-10 w-10 items-center justify-center rounded-full bg-amber-300 font-bold text-purple-950 hover:bg-amber-200"
        >
          {initials}
        </Menu.Trigger>
        <Menu.Content
          align="end"
          sideOffset={8}
          collisionPadding={8}
          // At least the spec's 200 px, at most 20 rem and never wider than the window: a long name wraps.
          className="z-30 w-max max-w-[min(20rem,calc(100vw-1rem))] min-w-[200px] rounded-xl bg-white p-2 shadow-xl ring-1 ring-black/5"
        >
          <div className="border-b border-slate-100 px-3 py-2">
            <p className="font-semibold [overflow-wrap:anywhere] text-slate-900">
              {user.firstName} {user.lastName}
            </p>
            <p className="text-sm text-slate-700">
              <Email address={user.email} />
            </p>
          </div>
          <Menu.Item
            className="block w-full cursor-pointer rounded-lg px-3 py-2 text-start text-sm text-slate-900 outline-none data-[highlighted]:bg-purple-50"
            onSelect={() => setProfileOpen(true)}
          >
            {t('Edit Profile')}
          </Menu.Item>
          <Menu.Item
            className="block w-full cursor-pointer rounded-lg px-3 py-2 text-start text-sm text-red-700 outline-none data-[highlighted]:bg-red-50"
            onSelect={async () => {
              await logout();
              navigate('/login', { replace: true });
            }}
          >
            {t('Logout')}
          </Menu.Item>
        </Menu.Content>
      </Menu.Root>
      <InviteDialog open={inviteOpen} onClose={() => setInviteOpen(false)} />
      <ProfileDialog
        open={profileOpen}
        onClose={() => setProfileOpen(false)}
        startInEdit={false}
        security={
          <div className="space-y-3">
            <h2 className="text-base font-bold text-slate-900">{t('Security')}</h2>
            {user.withdrawalsFrozen && (
              <p role="status" className="rounded-lg bg-red-50 p-3 text-sm text-red-800">
                {t(
                  'Withdrawals are frozen on this account. Change your password, then contact support to have the freeze lifted.',
                )}
              </p>
            )}
            {!user.isAdmin && <WithdrawalLockSection />}
            {!user.isAdmin && <AddressBookSection />}
            {!user.isAdmin && <WithdrawalPasswordSection />}
            {!user.isAdmin && <MyWithdrawalLimits />}
            <PasskeysSection />
            <TwoFactorSection />
            <SessionsSection />
            <SecurityActivity />
          </div>
        }
      />
    </div>
  );
}
