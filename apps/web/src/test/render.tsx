import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { ToastContainer } from 'react-toastify';
import type { Role } from '@harvest/shared/staff';
import type { User } from '@harvest/shared/schemas/user';
import { AuthContext, AuthProvider } from '../lib/auth.tsx';

/** A staff member of `role`, signed in without asking the server (back-office parts read only the role). */
function staffSession(role: Role) {
  const user: User = {
    _id: 'staff1',
    id: 'staff1',
    firstName: 'Grace',
    lastName: 'Hopper',
    email: 'grace@example.com',
    phone: null,
    isAdmin: true,
    role,
    fourEyes: false,
    isBlocked: false,
    depositAddress: '0x1111111111111111111111111111111111111111',
    withdrawalWallet: null,
    invitationCode: null,
    twoFactorEnabled: true,
    locale: 'en',
    withdrawalLock: { status: 'off', endsAt: null, required: false },
    withdrawalsFrozen: false,
    cycleReminders: false,
    createdAt: '2026-01-01T00:00:00.000Z',
  };
  const idle = async () => undefined;
  return {
    status: 'authenticated' as const,
    user,
    platform: null,
    notice: null,
    signIn: () => undefined,
    setUser: () => undefined,
    logout: idle,
    refresh: idle,
  };
}

/**
 * Renders a screen part the way the app does: a fresh query client (no retries, so a failure shows at
 * once), the session, a router at `path` and the toasts. Returns the query client too. `staff` signs in a
 * staff member of that role instead of reading the session from the server.
 */
export function renderApp(
  ui: ReactNode,
  { path = '/', auth = true, staff }: { path?: string; auth?: boolean; staff?: Role } = {},
) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const inner = (
    <MemoryRouter initialEntries={[path]}>
      {ui}
      <ToastContainer />
    </MemoryRouter>
  );
  const session = staff ? (
    <AuthContext.Provider value={staffSession(staff)}>{inner}</AuthContext.Provider>
  ) : auth ? (
    <AuthProvider>{inner}</AuthProvider>
  ) : (
    inner
  );
  const result = render(<QueryClientProvider client={client}>{session}</QueryClientProvider>);
  return { ...result, client };
}
