import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import { Button } from './button.tsx';
import { inputClass } from './field.tsx';
import { t } from '../../lib/i18n.tsx';

/**
 * A search box and its Search button (role="search"): the label is for screen readers, the placeholder says
 * what to type. `children` follow the button (e.g. a Clear button).
 */
export function SearchForm({
  label,
  onSubmit,
  input,
  children,
}: {
  label: string;
  onSubmit: (e: React.FormEvent<HTMLFormElement>) => void;
  /** The input's own attributes (placeholder, maxLength, and the form library's registration). */
  input: InputHTMLAttributes<HTMLInputElement>;
  children?: ReactNode;
}) {
  const id = useId();
  return (
    <form onSubmit={onSubmit} role="search" className="flex flex-wrap gap-2">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input id={id} type="search" className={`${inputClass} min-w-0 flex-1`} {...input} />
      <Button type="submit">{t('Search')}</Button>
      {children}
    </form>
  );
}
