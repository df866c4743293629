import { useCallback, useEffect, useRef, useState } from 'react';
import { useForm, type FieldPath, type FieldValues, type Resolver, type UseFormProps } from 'react-hook-form';
import * as z from 'zod/mini';
import { paramsSchema } from '@harvest/shared/schemas/common';
import { errorText } from './api-client.ts';
import { known, useLingui } from './i18n.tsx';
import { sayServer } from './server-text.ts';

/** The template and values a schema's check with values (atMost) puts in its issue. */
const issueSaid = z.object({ template: z.string(), params: paramsSchema });

/** An issue's text in the current language: the spec's English said by itself, or by its template with its values. */
function issueText(issue: z.core.$ZodIssue): string {
  const said = 'params' in issue ? z.safeParse(issueSaid, issue.params) : null;
  return said?.success ? sayServer({ text: issue.message, ...said.data }) : known(issue.message);
}

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
      errors[key] ??= { type: issue.code, message: issueText(issue) };
    }
    return { values: {}, errors: errors as never };
  };
}

/**
 * A form whose fields are checked by `schema` on submit and, once submitted, on every change. A language change
 * draws it again in place (what was typed stays) and says its field errors again in the new language.
 */
export function useZodForm<T extends FieldValues>(
  schema: z.core.$ZodType,
  props: UseFormProps<T> = {},
  adapt: Parameters<typeof zodResolver<T>>[1] = {},
) {
  const { locale } = useLingui();
  const form = useForm<T>({
    resolver: zodResolver<T>(schema, adapt),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    ...props,
  });
  const said = useRef(locale);
  // Failures the server reported at a field, kept as they came so a language change says them again.
  const failures = useRef(new Map<string, { err: unknown; fallback: string }>());
  useEffect(() => {
    if (said.current === locale) return;
    said.current = locale;
    const errors = Object.entries(form.formState.errors).filter(([name, e]) => name !== 'root' && e?.type);
    for (const [name, e] of errors) {
      const f = failures.current.get(name);
      if (e?.type === SERVER && f)
        form.setError(name as never, { type: SERVER, message: errorText(f.err, f.fallback) });
    }
    // The schema's errors (typed by their issue code) are checked, and so said, again.
    const checked = errors.filter(([, e]) => e?.type !== SERVER).map(([name]) => name);
    if (checked.length) void form.trigger(checked as never);
  }, [form, locale]);
  /** Shows a failed call's error (or `fallback`, our English) at `name`, in the current language. */
  const fail = useCallback(
    (name: FieldPath<T>, err: unknown, fallback: string) => {
      failures.current.set(name, { err, fallback });
      form.setError(name, { type: SERVER, message: errorText(err, fallback) });
    },
    [form],
  );
  return Object.assign(form, { fail });
}

/** The type of a field error the server reported (a schema's error is typed by its issue code). */
const SERVER = 'server';

/** The first error of a submit, for the toast the spec asks for beside the inline texts. */
export function firstError(errors: Record<string, { message?: unknown } | undefined>): string | null {
  for (const e of Object.values(errors)) if (e && typeof e.message === 'string') return e.message;
  return null;
}

/**
 * A form's failure not tied to one field (a server's error, or a rule's English text as `fallback` with no
 * error): kept as it came and said in the current language where it is shown, so a language change says it again.
 */
export function useFailure() {
  useLingui();
  const [failure, setFailure] = useState<{ err: unknown; fallback: string } | null>(null);
  return {
    text: failure && errorText(failure.err, failure.fallback),
    set: (err: unknown, fallback: string) => setFailure({ err, fallback }),
    clear: () => setFailure(null),
  };
}
