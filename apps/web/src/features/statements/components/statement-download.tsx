import { useState, type FormEvent } from 'react';
import { statementTexts } from '@harvest/shared/statement-texts';
import { t } from '../../../lib/i18n.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { inputClass } from '../../../components/ui/field.tsx';
import { periodError } from '../lib/period.ts';
import { useStatementDownload } from './download-buttons.tsx';
import { currentMonthChoice, PeriodFields, periodOf } from './period-fields.tsx';

/** The administrator's "Download statement" of one user: a period and a format (the download is audited). */
export function StatementDownload({ userId }: { userId: string }) {
  const st = statementTexts(t).screen;
  const [choice, setChoice] = useState(currentMonthChoice);
  const [format, setFormat] = useState<'pdf' | 'csv'>('pdf');
  const [error, setError] = useState<string | null>(null);
  const { busy, download } = useStatementDownload(`/admin/users/${userId}/statement`);
  const formatId = `statement-format-${userId}`;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const p = periodOf(choice);
    const err = periodError(p);
    setError(err);
    if (!err) void download(p, format);
  };

  return (
    <form onSubmit={onSubmit} className="space-y-3" noValidate>
      <PeriodFields value={choice} onChange={setChoice} error={error} />
      <div className="flex flex-wrap items-end gap-3">
        <div className="space-y-1">
          <label htmlFor={formatId} className="block text-sm font-medium text-slate-800">
            {st.format}
          </label>
          <select
            id={formatId}
            className={inputClass}
            value={format}
            onChange={(e) => setFormat(e.target.value === 'csv' ? 'csv' : 'pdf')}
          >
            <option value="pdf">{st.formatPdf}</option>
            <option value="csv">{st.formatCsv}</option>
          </select>
        </div>
        <Button type="submit" disabled={busy !== null}>
          {busy ? st.preparing : st.download}
        </Button>
      </div>
    </form>
  );
}
