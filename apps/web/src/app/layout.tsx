import { Outlet } from 'react-router';
import { ToastContainer } from 'react-toastify';
import { TOAST_MS } from '@harvest/shared/constants';
import { LoadingScreen } from '../components/ui/loading-screen.tsx';
import { useAuth } from '../lib/auth.tsx';
import { BlockedScreen } from './blocked-screen.tsx';
import { TopBar } from './top-bar.tsx';

/** Full-screen gradient backdrop, the top bar, toasts top-right for 3 s; a blocked user sees only the blocked screen. */
export function Layout() {
  const { status } = useAuth();
  return (
    <div className="min-h-screen">
      <TopBar />
      {status === 'loading' ? <LoadingScreen /> : status === 'blocked' ? <BlockedScreen /> : <Outlet />}
      <ToastContainer position="top-right" autoClose={TOAST_MS} newestOnTop theme="colored" />
    </div>
  );
}
