import { lazy, Suspense } from 'react';
import { TOAST_MS } from '@harvest/shared/constants';

const Container = lazy(() => import('react-toastify').then((m) => ({ default: m.ToastContainer })));

/** Where toasts appear: top-right, closing after 3 s (spec sections 2 and 9); the library loads after the page. */
export function Toasts() {
  return (
    <Suspense fallback={null}>
      <Container position="top-right" autoClose={TOAST_MS} newestOnTop theme="colored" />
    </Suspense>
  );
}
