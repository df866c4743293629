import { forwardRef, useId, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { t, known } from '../../lib/i18n.tsx';

const INPUT =
  'w-full min-w-0 rounded-lg border border-slate-400 bg-white px-3 py-2 text-sm text-slate-900 placeholder:text-slate-500 focus:border-purple-600 focus:outline-none focus:ring-2 focus:ring-purple-200 disabled:bg-slate-100 disabled:text-slate-600 aria-[invalid=true]:border-red-600';

/**
 * A labelled control with its hint and its error: the error sits under the field, in the spec's words,
 * and the control points at it (aria-invalid, aria-describedby), so a screen reader hears it too. A field
 * `flaggedBy` a message shown once for the whole form (a summary) is marked invalid and points at that.
 */
export function Field({
  label,
  hint,
  error,
  flaggedBy,
  children,
}: {
  label: string;
  hint?: string;
  error?: string | null;
  /** The id of the form's summary this field is one of the reasons for. */
  flaggedBy?: string;
  children: (id: string, describedBy: string | undefined, invalid: boolean) => ReactNode;
}) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : '';
  const errorId = error ? `${id}-error` : '';
  const describedBy = [flaggedBy, hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className="min-w-0 space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {children(id, describedBy, Boolean(error || flaggedBy))}
      {hint && (
        <p id={hintId} className="text-xs text-slate-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-sm font-medium text-red-700">
          {known(error)}
        </p>
      )}
      {/* A mark that does not rely on the red outline alone; a screen reader hears the summary instead. */}
      {flaggedBy && !error && (
        <p aria-hidden="true" className="text-xs font-medium text-red-700">
          {t('Required')}
        </p>
      )}
    </div>
  );
}

type InputProps = InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  hint?: string;
  error?: string | null;
  flaggedBy?: string;
};

export const TextInput = forwardRef<HTMLInputElement, InputProps>(function TextInput(
  { label, hint, error, flaggedBy, className = '', ...props },
  ref,
) {
  return (
    <Field label={label} hint={hint} error={error} flaggedBy={flaggedBy}>
      {(id, describedBy, invalid) => (
        <input
          ref={ref}
          id={id}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          className={`${INPUT} ${className}`}
          {...props}
        />
      )}
    </Field>
  );
});

/**
 * Every typed amount of USDC. A text field with the decimal keypad rather than type="number", which hands the
 * shared schema "" for "1,5" or "abc" (so the wrong message) and changes under the mouse wheel.
 */
export const AmountInput = forwardRef<HTMLInputElement, Omit<InputProps, 'type' | 'inputMode'>>(
  function AmountInput(props, ref) {
    return (
      <TextInput ref={ref} type="text" inputMode="decimal" dir="ltr" autoComplete="off" spellCheck={false} {...props} />
    );
  },
);

/** A password field with the spec's Show/Hide toggle. */
export const PasswordInput = forwardRef<HTMLInputElement, InputProps>(function PasswordInput(
  { label, hint, error, flaggedBy, ...props },
  ref,
) {
  const [shown, setShown] = useState(false);
  return (
    <Field label={label} hint={hint} error={error} flaggedBy={flaggedBy}>
      {(id, describedBy, invalid) => (
        <div className="relative">
          <input
            ref={ref}
            id={id}
            type={shown ? 'text' : 'password'}
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            className={`${INPUT} pe-16`}
            {...props}
          />
          <button
            type="button"
            onClick={() => setShown((s) => !s)}
            aria-label={
              shown
                ? t('Hide {field}', { field: label.toLowerCase() })
                : t('Show {field}', { field: label.toLowerCase() })
            }
            className="absolute inset-y-0 end-0 px-3 text-xs font-semibold text-purple-800 hover:text-purple-950"
          >
            {shown ? t('Hide') : t('Show')}
          </button>
        </div>
      )}
    </Field>
  );
});

export const inputClass = INPUT;
