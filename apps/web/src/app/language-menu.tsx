import { useQueryClient } from '@tanstack/react-query';
import { LOCALES, LOCALE_NAMES, isLocale } from '@harvest/shared/i18n';
import { useAuth, saveLocale } from '../lib/auth.tsx';
import { markLocaleUnsaved, setLocale, t, useLingui } from '../lib/i18n.tsx';
import { toast } from '../lib/toast.ts';

/**
 * The language menu of the header, on every page (sign-in and signup too): each language named in its own words.
 * Signed in, the choice is saved on the account (its e-mails follow it); signed out, it is saved at the next
 * sign-in (docs/decisions/0075).
 */
// One on the page (the header): a fixed id, so the static page shell in index.html (shell.test.tsx) has it too.
export function LanguageMenu() {
  const { status, setUser } = useAuth();
  const queryClient = useQueryClient();
  const choose = async (value: string) => {
    if (!isLocale(value)) return;
    await setLocale(value);
    if (status !== 'authenticated') {
      markLocaleUnsaved(true);
      return;
    }
    try {
      setUser((await saveLocale(value)).user);
      // What the server writes in the person's language (a statement's lines) is read again in the new one.
      void queryClient.invalidateQueries();
    } catch {
      toast.error(t('Failed to save your language'));
    }
  };
  const { locale } = useLingui();
  // On a phone the closed menu shows the language's code ("RU") beside a globe, so the platform's name keeps its
  // room in the header; wider, its own name. The native select lies transparent over that face (as the country
  // code selector does) and keeps the focus and the list.
  return (
    <div className="relative shrink-0">
      <label htmlFor="language-menu" className="sr-only">
        {t('Language')}
      </label>
      <select
        id="language-menu"
        value={locale}
        onChange={(e) => void choose(e.target.value)}
        className="peer absolute inset-0 z-10 h-full w-full cursor-pointer opacity-0"
      >
        {LOCALES.map((l) => (
          <option key={l} value={l} lang={l}>
            {LOCALE_NAMES[l]}
          </option>
        ))}
      </select>
      <div
        aria-hidden="true"
        className="flex h-10 items-center gap-1.5 rounded-lg border border-white/30 bg-purple-900 px-2 text-sm whitespace-nowrap text-white peer-focus-visible:ring-2 peer-focus-visible:ring-amber-300"
      >
        <svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="1.8">
          <circle cx="12" cy="12" r="9" />
          <path d="M3 12h18M12 3c2.5 2.7 3.8 5.7 3.8 9s-1.3 6.3-3.8 9c-2.5-2.7-3.8-5.7-3.8-9S9.5 5.7 12 3Z" />
        </svg>
        <span className="sm:hidden">{locale.slice(0, 2).toUpperCase()}</span>
        <span className="hidden sm:inline" lang={locale}>
          {LOCALE_NAMES[locale]}
        </span>
      </div>
    </div>
  );
}
