import { useMemo } from 'react';
import { getCountries, getCountryCallingCode, isSupportedCountry } from 'libphonenumber-js/min';
import { inputClass } from '../../../components/ui/field.tsx';
import { currentLocale, t } from '../../../lib/i18n.tsx';

export interface Country {
  iso: string;
  name: string;
  dial: string;
}

/** Every country libphonenumber-js maintains (about 245), named by the browser's Intl data in the language on screen. */
export function useCountries(): Country[] {
  const locale = currentLocale();
  return useMemo(() => {
    const names = new Intl.DisplayNames([locale], { type: 'region' });
    return getCountries()
      .map((iso) => ({ iso, name: names.of(iso) ?? iso, dial: `+${getCountryCallingCode(iso)}` }))
      .sort((a, b) => a.name.localeCompare(b.name, locale));
  }, [locale]);
}

/**
 * The country code selector beside the phone number. The list names each country first (so typing a
 * letter finds it); the closed control shows only the short form ("US +1"), which fits its narrow box
 * instead of a cut-off name. The native select lies transparent over that face and keeps the focus.
 */
export function CountrySelect({
  id,
  value,
  onChange,
}: {
  id?: string;
  value: string;
  onChange: (iso: string) => void;
}) {
  const countries = useCountries();
  const current = countries.find((c) => c.iso === value);
  return (
    <div className="relative min-w-0">
      <select
        id={id}
        aria-label={t('Country code')}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="peer absolute inset-0 z-10 h-full w-full cursor-pointer opacity-0"
      >
        {countries.map((c) => (
          <option key={c.iso} value={c.iso}>
            {c.name} ({c.dial})
          </option>
        ))}
      </select>
      <div
        aria-hidden="true"
        className={`${inputClass} flex items-center justify-between gap-1 whitespace-nowrap peer-focus-visible:border-purple-600 peer-focus-visible:ring-2 peer-focus-visible:ring-purple-200`}
      >
        <span>
          {value} {current?.dial ?? dialOf(value)}
        </span>
        <svg viewBox="0 0 12 12" width="12" height="12" fill="none" stroke="currentColor" strokeWidth="1.5">
          <path d="M3 4.5l3 3 3-3" />
        </svg>
      </div>
    </div>
  );
}

export function dialOf(iso: string): string {
  return isSupportedCountry(iso) ? `+${getCountryCallingCode(iso)}` : '+1';
}
