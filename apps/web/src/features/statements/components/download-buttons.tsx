import { useState } from 'react';
import { TEXT } from '@harvest/shared/texts';
import { statementTexts } from '@harvest/shared/statement-texts';
import { t } from '../../../lib/i18n.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { toast } from '../../../lib/toast.ts';
import { downloadStatement, type Period } from '../api/statement.ts';

/** Downloads a statement as CSV or PDF and says under which name it was saved (or why not). */
export function useStatementDownload(path: string) {
  const [busy, setBusy] = useState<'csv' | 'pdf' | null>(null);
  async function download(p: Period, format: 'csv' | 'pdf') {
    setBusy(format);
    try {
      toast.success(statementTexts(t).screen.downloaded(await downloadStatement(path, p, format)));
    } catch (err) {
      toast.error(errorText(err, TEXT.statementDownloadFailed));
    } finally {
      setBusy(null);
    }
  }
  return { busy, download };
}

export function DownloadButtons({ path, period }: { path: string; period: Period }) {
  const st = statementTexts(t).screen;
  const { busy, download } = useStatementDownload(path);
  return (
    <div className="flex flex-wrap gap-2">
      {(['csv', 'pdf'] as const).map((f) => (
        <Button key={f} variant="secondary" disabled={busy !== null} onClick={() => void download(period, f)}>
          {busy === f ? st.preparing : f === 'csv' ? st.downloadCsv : st.downloadPdf}
        </Button>
      ))}
    </div>
  );
}
