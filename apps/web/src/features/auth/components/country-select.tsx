import { useMemo } from 'react';
import { getCountries, getCountryCallingCode, isSupportedCountry } from 'libphonenumber-js/min';
import { inputClass } from '../../../components/ui/field.tsx';

export interface Country {
  iso: string;
  name: string;
  dial: string;
}

/** Every country libphonenumber-js maintains (about 245), named by the browser's Intl data. */
export function useCountries(): Country[] {
  return useMemo(() => {
    const names = new Intl.DisplayNames(['en'], { type: 'region' });
    return getCountries()
      .map((iso) => ({ iso, name: names.of(iso) ?? iso, dial: `+${getCountryCallingCode(iso)}` }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }, []);
}

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
  return (
    <select
      id={id}
      aria-label="Country code"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      className={`${inputClass} min-w-0`}
    >
      {countries.map((c) => (
        <option key={c.iso} value={c.iso}>
          {c.dial} {c.name}
        </option>
      ))}
    </select>
  );
}

export function dialOf(iso: string): string {
  return isSupportedCountry(iso) ? `+${getCountryCallingCode(iso)}` : '+1';
}
