import { useId } from 'react';
import { monthOf } from '@harvest/shared/schemas/statements';
import { statementTexts } from '@harvest/shared/statement-texts';
import { t, known } from '../../../lib/i18n.tsx';
import { inputClass } from '../../../components/ui/field.tsx';
import type { Period } from '../api/statement.ts';
import { monthPeriod, platformToday } from '../lib/period.ts';

/** What the person chose: a month (YYYY-MM) or two days. */
export interface PeriodChoice {
  mode: 'month' | 'custom';
  month: string;
  from: string;
  to: string;
}

/** The current month of the platform's calendar; custom dates start at its first day and today. */
export function currentMonthChoice(): PeriodChoice {
  const today = platformToday();
  return { mode: 'month', month: today.slice(0, 7), from: monthOf(today).from, to: today };
}

/** The choice that shows a period: its month when it is one whole month, else its two days. */
export function choiceFor(p: Period): PeriodChoice {
  const month = p.from.slice(0, 7);
  const whole = monthOf(p.from);
  return { mode: whole.from === p.from && whole.to === p.to ? 'month' : 'custom', month, from: p.from, to: p.to };
}

export const periodOf = (c: PeriodChoice): Period =>
  c.mode === 'month' ? monthPeriod(c.month) : { from: c.from, to: c.to };

/** A month, or a range of days: two radio buttons and the inputs of the choice, with the period's error under them. */
export function PeriodFields({
  value,
  onChange,
  error,
}: {
  value: PeriodChoice;
  onChange: (v: PeriodChoice) => void;
  error: string | null;
}) {
  const st = statementTexts(t).screen;
  const id = useId();
  const errorId = `${id}-error`;
  const described = error ? errorId : undefined;
  const set = (patch: Partial<PeriodChoice>) => onChange({ ...value, ...patch });
  const label = 'block text-sm font-medium text-slate-800';
  return (
    <div className="space-y-3">
      <fieldset>
        <legend className="mb-1 text-sm font-medium text-slate-800">{st.periodLegend}</legend>
        <div className="inline-flex rounded-lg bg-slate-100 p-1">
          {(['month', 'custom'] as const).map((mode) => (
            <label
              key={mode}
              className="cursor-pointer rounded-md px-3 py-1.5 text-sm whitespace-nowrap font-semibold text-slate-700 has-[:checked]:bg-white has-[:checked]:text-purple-900 has-[:checked]:shadow has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-purple-500"
            >
              <input
                type="radio"
                className="sr-only"
                name={`${id}-mode`}
                checked={value.mode === mode}
                onChange={() => set({ mode })}
              />
              {mode === 'month' ? st.month : st.custom}
            </label>
          ))}
        </div>
      </fieldset>
      {value.mode === 'month' ? (
        <div className="max-w-xs space-y-1">
          <label htmlFor={`${id}-month`} className={label}>
            {st.monthLabel}
          </label>
          <input
            id={`${id}-month`}
            type="month"
            className={inputClass}
            value={value.month}
            aria-invalid={Boolean(error)}
            aria-describedby={described}
            onChange={(e) => set({ month: e.target.value })}
          />
        </div>
      ) : (
        <div className="grid max-w-md grid-cols-1 gap-3 sm:grid-cols-2">
          {(['from', 'to'] as const).map((k) => (
            <div key={k} className="min-w-0 space-y-1">
              <label htmlFor={`${id}-${k}`} className={label}>
                {k === 'from' ? st.fromLabel : st.toLabel}
              </label>
              <input
                id={`${id}-${k}`}
                type="date"
                className={inputClass}
                value={value[k]}
                aria-invalid={Boolean(error)}
                aria-describedby={described}
                onChange={(e) => set({ [k]: e.target.value })}
              />
            </div>
          ))}
        </div>
      )}
      {error && (
        <p id={errorId} role="alert" className="text-sm font-medium text-red-700">
          {known(error)}
        </p>
      )}
    </div>
  );
}
