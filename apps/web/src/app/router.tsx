import { createBrowserRouter, Navigate } from 'react-router';
import { LoadingScreen } from '../components/ui/loading-screen.tsx';
import { useAuth } from '../lib/auth.tsx';
import { loadChunk } from '../lib/lazy.ts';
import { ErrorPage } from './error-page.tsx';
import { Layout } from './layout.tsx';

function RootRedirect() {
  const { status } = useAuth();
  return <Navigate to={status === 'authenticated' ? '/dashboard' : '/signup'} replace />;
}

/** Each screen is its own chunk: the login page does not download the dashboard. */
export const router = createBrowserRouter([
  {
    element: <Layout />,
    errorElement: <ErrorPage />,
    hydrateFallbackElement: <LoadingScreen />,
    children: [
      { path: '/', element: <RootRedirect /> },
      { path: '/login', lazy: loadChunk(() => import('./routes/login.tsx')) },
      { path: '/signup', lazy: loadChunk(() => import('./routes/signup.tsx')) },
      { path: '/dashboard', lazy: loadChunk(() => import('./routes/dashboard/dashboard.tsx')) },
      { path: '*', element: <RootRedirect /> },
    ],
  },
]);
