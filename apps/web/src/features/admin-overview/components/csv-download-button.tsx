import { useState } from 'react';
import { toast } from 'react-toastify';
import { TEXT } from '@harvest/shared/texts';
import { Button } from '../../../components/ui/button.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { downloadCsv } from '../api/download-csv.ts';

/** A button that downloads one CSV export (the path carries the current filter). */
export function CsvDownloadButton({
  path,
  fileName,
  label = 'Download CSV',
}: {
  path: string;
  fileName: string;
  label?: string;
}) {
  const [busy, setBusy] = useState(false);
  async function onClick() {
    setBusy(true);
    try {
      await downloadCsv(path, fileName);
    } catch (err) {
      toast.error(errorText(err, TEXT.exportFailed));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Button variant="secondary" onClick={onClick} disabled={busy}>
      {busy ? 'Preparing...' : label}
    </Button>
  );
}
