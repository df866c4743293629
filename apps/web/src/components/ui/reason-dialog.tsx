import { useState, type ReactNode } from 'react';
import { Button } from './button.tsx';
import { Dialog } from './dialog.tsx';
import { TextArea } from './text-area.tsx';
import { t } from '../../lib/i18n.tsx';

/**
 * Asks for the reason of a decision someone else will read (e.g. an investor reads why their deposit was
 * rejected), then confirms it. `onConfirm` returns the error text to show at the reason, or null when done.
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
  onConfirm: (reason: string) => Promise<string | null>;
  onClose: () => void;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setReason('');
    setError(null);
    onClose();
  };
  return (
    <Dialog open={open} onClose={close} title={title}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void onConfirm(reason).then((text) => (text === null ? close() : setError(text)));
        }}
        noValidate
        className="space-y-4"
      >
        <div className="text-sm text-slate-700">{children}</div>
        <TextArea
          label={label}
          error={error}
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
