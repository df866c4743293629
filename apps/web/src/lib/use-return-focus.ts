import { useLayoutEffect, useRef } from 'react';

/**
 * Focus goes back to the control that opened a dialog when it closes (keyboard users stay where they were). Radix
 * returns it only to its own Trigger; these dialogs are opened by state (a button in a row, a form's submit), so
 * the focused control is remembered as the dialog opens, before the dialog moves focus into itself.
 */
export function useReturnFocus(open: boolean): (event: Event) => void {
  const opener = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    if (open) opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  }, [open]);
  return (event) => {
    const el = opener.current;
    if (!el?.isConnected) return;
    event.preventDefault();
    el.focus();
  };
}
