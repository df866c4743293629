import { forwardRef, type SelectHTMLAttributes } from 'react';
import { Field, inputClass } from './field.tsx';

type SelectProps = SelectHTMLAttributes<HTMLSelectElement> & {
  label: string;
  /** The choices, in order: the value sent and the text shown. */
  options: readonly { value: string; label: string }[];
};

/** A labelled drop-down of fixed choices (a filter, an export's status). */
export const SelectField = forwardRef<HTMLSelectElement, SelectProps>(function SelectField(
  { label, options, className = '', ...props },
  ref,
) {
  return (
    <Field label={label}>
      {(id, describedBy) => (
        <select ref={ref} id={id} aria-describedby={describedBy} className={`${inputClass} ${className}`} {...props}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
});
