import { lazy, Suspense, useEffect, useState } from 'react';
import { TOAST_MS } from '@harvest/shared/constants';
import { usePageSettled } from '../../lib/lazy.ts';
import { onToastWanted } from '../../lib/toast.ts';

const Container = lazy(() => import('react-toastify').then((m) => ({ default: m.ToastContainer })));

/**
 * Where toasts appear: top-right, closing after 3 s (spec sections 2 and 9). The library (which brings
 * its own stylesheet) loads once the page has settled, or at once when a toast is raised before that.
 */
export function Toasts() {
  const settled = usePageSettled();
  const [wanted, setWanted] = useState(false);
  useEffect(() => onToastWanted(() => setWanted(true)), []);
  if (!settled && !wanted) return null;
  return (
    <Suspense fallback={null}>
      <Container position="top-right" autoClose={TOAST_MS} newestOnTop theme="colored" />
    </Suspense>
  );
}
