import type { Id, ToastOptions } from 'react-toastify';
import { known } from './i18n.tsx';

/*
 * The spec's toasts (top-right, 3 s) through react-toastify, loaded on first use: no page needs the
 * library to appear, so it stays out of the first load. Calls made before it arrives are shown once it has.
 * The container (components/ui/toasts.tsx) mounts when the page has settled or at the first toast,
 * whichever comes first; react-toastify keeps a toast raised before it mounts and shows it then.
 */
type Toastify = typeof import('react-toastify');
let lib: Promise<Toastify> | null = null;
let wanted = false;
const waiting = new Set<() => void>();

/** Calls `cb` once a toast has been asked for (at once if one already was); returns the unsubscribe. */
export function onToastWanted(cb: () => void): () => void {
  if (wanted) {
    cb();
    return () => undefined;
  }
  waiting.add(cb);
  return () => waiting.delete(cb);
}

const load = () => {
  if (!wanted) {
    wanted = true;
    for (const cb of waiting) cb();
    waiting.clear();
  }
  return (lib ??= import('react-toastify'));
};

/** The error toast on screen, if any. */
let shownError: Id | null = null;

const show = (kind: 'success' | 'error' | 'info') => (text: string, opts?: ToastOptions) => {
  // A server's text (a receipt, an error) in the person's language; a text already said with t() stays as it is.
  void load().then((m) => {
    const said = known(text);
    if (kind !== 'error') return void m.toast[kind](said, opts);
    // One error at a time: a form failing again (or another one) replaces the error shown, with its 3 s anew
    // (an update remounts the timer), rather than stacking one more under it. The update applies at once (no
    // `delay`: by default it lands 100 ms later, and one landing on a toast that began to close meanwhile is lost).
    if (shownError !== null && m.toast.isActive(shownError))
      m.toast.update(shownError, { ...opts, render: said, delay: undefined });
    else shownError = m.toast.error(said, opts);
  });
};

export const toast = { success: show('success'), error: show('error'), info: show('info') };
