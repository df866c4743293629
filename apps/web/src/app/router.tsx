import { lazy, type ComponentType } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { useAuth } from '../lib/auth.tsx';
import { useLingui } from '../lib/i18n.tsx';
import { loadChunk } from '../lib/lazy.ts';
import { ErrorBoundary } from './error-page.tsx';
import { Layout } from './layout.tsx';

function RootRedirect() {
  const { status } = useAuth();
  return <Navigate to={status === 'authenticated' ? '/dashboard' : '/signup'} replace />;
}

const page = (load: () => Promise<{ Component: ComponentType }>) =>
  lazy(loadChunk(() => load().then((m) => ({ default: m.Component }))));

const Login = page(() => import('./routes/login.tsx'));
const Signup = page(() => import('./routes/signup.tsx'));
const Dashboard = page(() => import('./routes/dashboard/dashboard.tsx'));
const NotFound = page(() => import('./routes/not-found.tsx'));
const AccountLink = page(() => import('./routes/account-link.tsx'));
const ProofOfReserves = page(() => import('./routes/proof-of-reserves.tsx'));
const StaffInvite = page(() => import('./routes/staff-invite.tsx'));

/**
 * Each screen is its own chunk: the login page does not download the dashboard. The declarative router
 * (no loaders or actions are used) keeps react-router's share of the first load at half the data router's.
 * A language change draws every screen again, in place: the routes below are made anew on each render.
 */
export function AppRouter() {
  useLingui();
  return (
    <BrowserRouter>
      <ErrorBoundary>
        <Routes>
          <Route element={<Layout />}>
            <Route path="/" element={<RootRedirect />} />
            <Route path="/login" element={<Login />} />
            <Route path="/signup" element={<Signup />} />
            <Route path="/dashboard" element={<Dashboard />} />
            <Route path="/proof-of-reserves" element={<ProofOfReserves />} />
            {/* The security e-mails' links. */}
            <Route path="/confirm-address" element={<AccountLink />} />
            <Route path="/confirm-lock-off" element={<AccountLink />} />
            <Route path="/not-me" element={<AccountLink />} />
            <Route path="/staff-invite" element={<StaffInvite />} />
            <Route path="*" element={<NotFound />} />
          </Route>
        </Routes>
      </ErrorBoundary>
    </BrowserRouter>
  );
}
