import * as RadixDialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import { t } from '../../lib/i18n.tsx';
import { useReturnFocus } from '../../lib/use-return-focus.ts';

/**
 * A modal (Radix dialog): focus moves in and is trapped, Escape closes, focus returns to the opener.
 * It renders in a portal below the toasts' layer, so a toast raised from inside it stays visible;
 * errors that belong to the dialog are shown inline in it as well.
 */
export function Dialog({
  open,
  onClose,
  title,
  description,
  wide = false,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: string;
  /** A dialog with lists in it (Profile): up to 42 rem wide. */
  wide?: boolean;
  children: ReactNode;
}) {
  const returnFocus = useReturnFocus(open);
  return (
    <RadixDialog.Root open={open} onOpenChange={(o) => !o && onClose()}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-slate-900/60" />
        <RadixDialog.Content
          onCloseAutoFocus={returnFocus}
          className={`fixed top-1/2 left-1/2 z-50 max-h-[calc(100vh-2rem)] w-[calc(100%-2rem)] ${wide ? 'max-w-2xl' : 'max-w-md'} -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-6 shadow-2xl`}
        >
          <div className="mb-4 flex items-center justify-between gap-2">
            <RadixDialog.Title className="text-lg font-bold text-slate-900">{title}</RadixDialog.Title>
            <RadixDialog.Close
              aria-label={t('Close')}
              className="rounded p-1 text-2xl leading-none text-slate-600 hover:text-slate-900"
            >
              ×
            </RadixDialog.Close>
          </div>
          <RadixDialog.Description className={description ? 'mb-3 text-sm text-slate-700' : 'sr-only'}>
            {description ?? title}
          </RadixDialog.Description>
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
