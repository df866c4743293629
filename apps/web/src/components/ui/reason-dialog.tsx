import { useState, type ReactNode } from 'react';
import { Button } from './button.tsx';
import { Dialog } from './dialog.tsx';
import { TextArea } from './text-area.tsx';
import { useFailure } from '../../lib/form.ts';
import { t } from '../../lib/i18n.tsx';

/**
 * Asks for the reason of a decision someone else will read (e.g. an investor reads why their deposit was
 * rejected), then confirms it. `onConfirm` returns the failure to show at the reason (said in the current language
 * where it is drawn), or null when done.
 */
export function ReasonDialog({
  open,
  title,
  children,
  label = 'Reason',
  maxLength,
  confirmLabel,
  busyLabel,
  busy,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  /** What the decision does, in words. */
  children: ReactNode;
  label?: string;
  maxLength: number;
  confirmLabel: string;
  busyLabel: string;
  busy: boolean;
  onConfirm: (reason: string) => Promise<{ err: unknown; fallback: string } | null>;
  onClose: () => void;
}) {
  const [reason, setReason] = useState('');
  const failure = useFailure();
  const close = () => {
    setReason('');
    failure.clear();
    onClose();
  };
  return (
    <Dialog open={open} onClose={close} title={title}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void onConfirm(reason).then((f) => (f === null ? close() : failure.set(f.err, f.fallback)));
        }}
        noValidate
        className="space-y-4"
      >
        <div className="text-sm text-slate-700">{children}</div>
        <TextArea
          label={label}
          error={failure.text}
          maxLength={maxLength}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={close}>
            {t('Cancel')}
          </Button>
          <Button type="submit" variant="danger" disabled={busy}>
            {busy ? busyLabel : confirmLabel}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
