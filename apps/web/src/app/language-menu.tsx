import { useId } from 'react';
import { LOCALES, LOCALE_NAMES, isLocale } from '@harvest/shared/i18n';
import { useAuth, saveLocale } from '../lib/auth.tsx';
import { currentLocale, markLocaleUnsaved, setLocale, t } from '../lib/i18n.tsx';
import { toast } from '../lib/toast.ts';

/**
 * The language menu of the header, on every page (sign-in and signup too): each language named in its own words.
 * Signed in, the choice is saved on the account (its e-mails follow it); signed out, it is saved at the next
 * sign-in (docs/decisions/0075).
 */
export function LanguageMenu() {
  const { status, setUser } = useAuth();
  const id = useId();
  const choose = async (value: string) => {
    if (!isLocale(value)) return;
    await setLocale(value);
    if (status !== 'authenticated') {
      markLocaleUnsaved(true);
      return;
    }
    try {
      setUser((await saveLocale(value)).user);
    } catch {
      toast.error(t('Failed to save your language'));
    }
  };
  return (
    <div className="shrink-0">
      <label htmlFor={id} className="sr-only">
        {t('Language')}
      </label>
      <select
        id={id}
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
