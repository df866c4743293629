import { useNavigate } from 'react-router';
import { Button } from '../components/ui/button.tsx';
import { useAuth } from '../lib/auth.tsx';
import { supportEmail } from '../lib/support.ts';
import { rich, t } from '../lib/i18n.tsx';

export function BlockedScreen() {
  const { logout } = useAuth();
  const navigate = useNavigate();
  const email = supportEmail();
  return (
    <div className="flex min-h-[calc(100vh-4rem)] items-center justify-center px-4">
      <div className="w-full max-w-md rounded-2xl bg-white p-8 text-center shadow-2xl">
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          width="56"
          height="56"
          className="mx-auto mb-4 text-red-600"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
        >
          <circle cx="12" cy="12" r="9" />
          <path d="M5.6 5.6l12.8 12.8" />
        </svg>
        <h1 className="text-2xl font-bold text-red-700">{t('Account Blocked')}</h1>
        <p className="mt-3 text-slate-700">
          {rich(t('Your account has been blocked. Please contact support at <0>{email}</0>.', { email }), [
            (text) => (
              <a className="font-semibold text-purple-700 underline" href={`mailto:${email}`} dir="ltr">
                {text}
              </a>
            ),
          ])}
        </p>
        <Button
          variant="danger"
          className="mt-6 w-full"
          onClick={async () => {
            await logout();
            navigate('/login', { replace: true });
          }}
        >
          {t('Logout')}
        </Button>
      </div>
    </div>
  );
}
