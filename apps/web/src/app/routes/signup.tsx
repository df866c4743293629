import { Navigate } from 'react-router';
import { SignupForm } from '../../features/auth/components/signup-form.tsx';
import { useAuth } from '../../lib/auth.tsx';

export function Component() {
  const { status } = useAuth();
  return status === 'authenticated' ? <Navigate to="/dashboard" replace /> : <SignupForm />;
}
