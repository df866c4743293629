import { forwardRef, type TextareaHTMLAttributes } from 'react';
import { Field, inputClass } from './field.tsx';

type TextAreaProps = TextareaHTMLAttributes<HTMLTextAreaElement> & {
  label: string;
  hint?: string;
  error?: string | null;
};

/** A labelled multi-line field (a reason, notes) with its hint and error. */
export const TextArea = forwardRef<HTMLTextAreaElement, TextAreaProps>(function TextArea(
  { label, hint, error, className = '', ...props },
  ref,
) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(id, describedBy, invalid) => (
        <textarea
          ref={ref}
          id={id}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          className={`${inputClass} min-h-20 ${className}`}
          {...props}
        />
      )}
    </Field>
  );
});
