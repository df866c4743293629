import { Navigate } from 'react-router';
import { LoginForm } from '../../features/auth/components/login-form.tsx';
import { useAuth } from '../../lib/auth.tsx';

export function Component() {
  const { status } = useAuth();
  return status === 'authenticated' ? <Navigate to="/dashboard" replace /> : <LoginForm />;
}
