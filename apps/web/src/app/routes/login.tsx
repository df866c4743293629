import { useState } from 'react';
import { Navigate } from 'react-router';
import { LoginForm } from '../../features/auth/components/login-form.tsx';
import { returnPath, useAuth } from '../../lib/auth.tsx';

/**
 * Signed in, the page leaves for the screen the session ended on (or the dashboard). The one redirect
 * lives here: a second navigate from the form raced it (the router's location update is a transition,
 * the sign-in a plain state update, so this page re-rendered first and sent everyone to /dashboard).
 */
export function Component() {
  const { status } = useAuth();
  const [to] = useState(returnPath);
  return status === 'authenticated' ? <Navigate to={to} replace /> : <LoginForm />;
}
