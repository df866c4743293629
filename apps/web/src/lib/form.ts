import { useEffect, useState } from 'react';
import { useForm, type FieldValues, type Resolver, type UseFormProps } from 'react-hook-form';
import * as z from 'zod/mini';
import { isRedrawing } from './i18n.tsx';

/**
 * react-hook-form driven by a shared Zod schema (the same one the server validates with), so every field
 * error is the spec's text, shown next to its field. The resolver is these few lines rather than
 * @hookform/resolvers: it works on zod/mini's functional API and keeps the first-load bundle small.
 */
export function zodResolver<T extends FieldValues>(
  schema: z.core.$ZodType,
  /** The request body the form's values make (e.g. country + number -> phone), and where its fields sit. */
  adapt: { toInput?: (values: T) => unknown; fieldOf?: Record<string, string> } = {},
): Resolver<T> {
  return (values) => {
    const parsed = z.safeParse(schema, adapt.toInput ? adapt.toInput(values) : values);
    if (parsed.success) return { values, errors: {} };
    const errors: Record<string, { type: string; message: string }> = {};
    for (const issue of parsed.error.issues) {
      const path = issue.path.length ? issue.path.join('.') : 'root';
      const key = adapt.fieldOf?.[path] ?? path;
      errors[key] ??= { type: issue.code, message: issue.message };
    }
    return { values: {}, errors: errors as never };
  };
}

/** What each mounted form holds, by its schema, for the form that replaces it when the language changes. */
const typed = new Map<object, FieldValues>();

/**
 * A form whose fields are checked by `schema` on submit and, once submitted, on every change. A language change
 * draws the app again from scratch (I18n): the form drawn then starts from what was typed in the one it replaces.
 */
export function useZodForm<T extends FieldValues>(
  schema: z.core.$ZodType,
  props: UseFormProps<T> = {},
  adapt: Parameters<typeof zodResolver<T>>[1] = {},
) {
  const [carried] = useState(() => (isRedrawing() ? typed.get(schema) : undefined));
  const form = useForm<T>({
    resolver: zodResolver<T>(schema, adapt),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    ...props,
    ...(carried && { defaultValues: { ...props.defaultValues, ...carried } as UseFormProps<T>['defaultValues'] }),
  });
  useEffect(() => {
    const watching = form.watch((values) => typed.set(schema, values));
    return () => {
      watching.unsubscribe();
      typed.delete(schema);
    };
  }, [form, schema]);
  return form;
}

/** The first error of a submit, for the toast the spec asks for beside the inline texts. */
export function firstError(errors: Record<string, { message?: unknown } | undefined>): string | null {
  for (const e of Object.values(errors)) if (e && typeof e.message === 'string') return e.message;
  return null;
}
