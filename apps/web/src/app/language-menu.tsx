import { useQueryClient } from '@tanstack/react-query';
import { LOCALES, LOCALE_NAMES, isLocale } from '@harvest/shared/i18n';
import { useAuth, saveLocale } from '../lib/auth.tsx';
import { currentLocale, markLocaleUnsaved, setLocale, t } from '../lib/i18n.tsx';
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
  return (
    <div className="shrink-0">
      <label htmlFor="language-menu" className="sr-only">
        {t('Language')}
      </label>
      <select
        id="language-menu"
        value={currentLocale()}
        onChange={(e) => void choose(e.target.value)}
        className="h-10 max-w-[9rem] rounded-lg border border-white/30 bg-purple-900 px-2 text-sm text-white focus:ring-2 focus:ring-amber-300 focus:outline-none"
      >
        {LOCALES.map((l) => (
          <option key={l} value={l} lang={l}>
            {LOCALE_NAMES[l]}
          </option>
        ))}
      </select>
    </div>
  );
}
