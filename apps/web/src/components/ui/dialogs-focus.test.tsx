import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { Dialog } from './dialog.tsx';

/** A row of buttons, the second of which opens the dialog: focus must come back to that one. */
function Harness({ kind }: { kind: 'dialog' | 'confirm' }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button">Before</button>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      {kind === 'dialog' ? (
        <Dialog open={open} onClose={() => setOpen(false)} title="Invite">
          <button type="button" onClick={() => setOpen(false)}>
            Done
          </button>
        </Dialog>
      ) : (
        <ConfirmDialog
          open={open}
          title="Approve deposit?"
          confirmLabel="Approve and credit"
          onConfirm={() => setOpen(false)}
          onCancel={() => setOpen(false)}
        >
          <p>10.00 USDC</p>
        </ConfirmDialog>
      )}
    </>
  );
}

describe('dialogs give focus back to the control that opened them', () => {
  for (const [kind, close] of [
    ['dialog', 'Done'],
    ['dialog', 'Escape'],
    ['confirm', 'Approve and credit'],
    ['confirm', 'Cancel'],
    ['confirm', 'Escape'],
  ] as const)
    it(`${kind}, closed with ${close}`, async () => {
      const user = userEvent.setup();
      render(<Harness kind={kind} />);
      await user.click(screen.getByRole('button', { name: 'Before' }));
      await user.tab();
      const opener = screen.getByRole('button', { name: 'Open' });
      expect(document.activeElement).toBe(opener);
      await user.keyboard('{Enter}');
      await screen.findByRole(kind === 'dialog' ? 'dialog' : 'alertdialog');
      expect(document.activeElement).not.toBe(opener);
      if (close === 'Escape') await user.keyboard('{Escape}');
      else await user.click(screen.getByRole('button', { name: close }));
      expect(screen.queryByRole(kind === 'dialog' ? 'dialog' : 'alertdialog')).toBeNull();
      expect(document.activeElement).toBe(opener);
    });
});
