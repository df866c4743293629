import type { ToastOptions } from 'react-toastify';

/*
 * The spec's toasts (top-right, 3 s) through react-toastify, loaded on first use: no page needs the
 * library to appear, so it stays out of the first load. Calls made before it arrives are shown once it has.
 */
type Toastify = typeof import('react-toastify');
let lib: Promise<Toastify> | null = null;
const load = () => (lib ??= import('react-toastify'));

const show = (kind: 'success' | 'error' | 'info') => (text: string, opts?: ToastOptions) => {
  void load().then((m) => m.toast[kind](text, opts));
};

export const toast = { success: show('success'), error: show('error'), info: show('info') };
