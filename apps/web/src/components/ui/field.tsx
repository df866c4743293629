import { useId, useState, type InputHTMLAttributes, type ReactNode } from 'react';

const INPUT =
  'w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 placeholder:text-slate-400 focus:border-purple-600 focus:outline-none focus:ring-2 focus:ring-purple-200 disabled:bg-slate-100 disabled:text-slate-500';

export function Field({
  label,
  hint,
  children,
}: {
  label: string;
  hint?: string;
  children: (id: string) => ReactNode;
}) {
  const id = useId();
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      {children(id)}
      {hint && <p className="text-xs text-slate-500">{hint}</p>}
    </div>
  );
}

export function TextInput({
  label,
  hint,
  className = '',
  ...props
}: InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: string }) {
  return (
    <Field label={label} hint={hint}>
      {(id) => <input id={id} className={`${INPUT} ${className}`} {...props} />}
    </Field>
  );
}

/** A password field with the spec's Show/Hide toggle. */
export function PasswordInput({
  label,
  hint,
  ...props
}: InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: string }) {
  const [shown, setShown] = useState(false);
  return (
    <Field label={label} hint={hint}>
      {(id) => (
        <div className="relative">
          <input id={id} type={shown ? 'text' : 'password'} className={`${INPUT} pr-16`} {...props} />
          <button
            type="button"
            onClick={() => setShown((s) => !s)}
            aria-label={`${shown ? 'Hide' : 'Show'} ${label.toLowerCase()}`}
            className="absolute inset-y-0 right-0 px-3 text-xs font-semibold text-purple-700 hover:text-purple-900"
          >
            {shown ? 'Hide' : 'Show'}
          </button>
        </div>
      )}
    </Field>
  );
}

export const inputClass = INPUT;
