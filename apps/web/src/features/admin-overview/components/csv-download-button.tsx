import { msg } from '@harvest/shared/i18n';
import { useState } from 'react';
import * as Menu from '@radix-ui/react-dropdown-menu';
import { toast } from '../../../lib/toast.ts';
import { TEXT } from '@harvest/shared/texts';
import { Button } from '../../../components/ui/button.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { count } from '../../../lib/format.ts';
import { downloadCsv } from '../api/download-csv.ts';
import { t } from '../../../lib/i18n.tsx';

/** One CSV export: where it comes from, the name to save it under, and what its rows are ("pending withdrawals"). */
export interface CsvExport {
  path: string;
  fileName: string;
  what: string;
}

/** Downloads an export and says what came of it: the file and its rows, or that there was nothing to export. */
function useCsvDownload() {
  const [busy, setBusy] = useState(false);
  async function download(e: CsvExport) {
    setBusy(true);
    try {
      const { name, rows } = await downloadCsv(e.path, e.fileName);
      if (rows === 0) toast.info(t('Nothing to export: there are no {what}.', { what: e.what }));
      else
        toast.success(
          rows === 1
            ? t('Downloaded {name}: 1 row ({what}).', { name, what: e.what })
            : t('Downloaded {name}: {n} rows ({what}).', { name, n: count(rows), what: e.what }),
        );
    } catch (err) {
      toast.error(errorText(err, TEXT.exportFailed));
    } finally {
      setBusy(false);
    }
  }
  return { busy, download };
}

/** The statuses an export can be filtered by, in words. */
const STATUS_WORDS: Record<string, string> = {
  all: msg('all'),
  pending: msg('pending'),
  confirmed: msg('confirmed'),
  failed: msg('failed'),
  approved: msg('approved'),
  rejected: msg('rejected'),
};

/** A button that downloads one CSV export (the path carries the current filter). */
export function CsvDownloadButton({ label, ...e }: CsvExport & { label?: string }) {
  const { busy, download } = useCsvDownload();
  return (
    <Button variant="secondary" onClick={() => void download(e)} disabled={busy}>
      {busy ? t('Preparing...') : (label ?? t('Download CSV'))}
    </Button>
  );
}

/**
 * A Download CSV menu offering several exports, each named by what it holds (e.g. the pending withdrawals, or
 * all of them). Radix menu, not modal and not portalled, like the profile menu (app/user-controls.tsx).
 */
export function CsvDownloadMenu({ label, choices }: { label?: string; choices: (CsvExport & { label: string })[] }) {
  const { busy, download } = useCsvDownload();
  return (
    <Menu.Root modal={false}>
      <Menu.Trigger asChild disabled={busy}>
        <Button variant="secondary">
          {busy ? t('Preparing...') : (label ?? t('Download CSV'))}
          <svg aria-hidden="true" viewBox="0 0 12 12" width="12" height="12" fill="none" stroke="currentColor">
            <path d="M3 4.5l3 3 3-3" strokeWidth="1.5" />
          </svg>
        </Button>
      </Menu.Trigger>
      <Menu.Content
        align="end"
        sideOffset={6}
        collisionPadding={8}
        className="z-30 max-w-[calc(100vw-1rem)] min-w-[200px] rounded-xl bg-white p-2 shadow-xl ring-1 ring-black/5"
      >
        {choices.map((c) => (
          <Menu.Item
            key={c.path}
            className="block w-full cursor-pointer rounded-lg px-3 py-2 text-start text-sm text-slate-900 outline-none data-[highlighted]:bg-purple-50"
            onSelect={() => void download(c)}
          >
            {c.label}
          </Menu.Item>
        ))}
      </Menu.Content>
    </Menu.Root>
  );
}

/**
 * One export with a choice of status: the status drop-down and its Download button side by side. The file
 * holds the rows of the status chosen ("all" for every row).
 */
export function ExportPicker({
  label,
  statuses,
  what,
  file,
  path,
  buttonLabel,
}: {
  /** The drop-down's label ("Deposits status"). */
  label: string;
  statuses: readonly string[];
  /** What the rows are, in the plural ("deposits"). */
  what: string;
  /** The file's name without the status and extension ("deposits"). */
  file: string;
  /** The export's path without its query ("/admin/export/deposits.csv"). */
  path: string;
  buttonLabel: string;
}) {
  const [status, setStatus] = useState(statuses[0] ?? 'all');
  return (
    <div className="flex flex-wrap items-end gap-2">
      <div className="min-w-40 flex-1">
        <SelectField
          label={label}
          options={statuses.map((s) => ({ value: s, label: t(STATUS_WORDS[s] ?? s) }))}
          value={status}
          onChange={(e) => setStatus(e.target.value)}
        />
      </div>
      <CsvDownloadButton
        path={`${path}?status=${status}`}
        fileName={`${file}.csv`}
        what={status === 'all' ? what : t('{status} {what}', { status: t(STATUS_WORDS[status] ?? status), what })}
        label={buttonLabel}
      />
    </div>
  );
}
