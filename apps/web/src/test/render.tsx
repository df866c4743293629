import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { ToastContainer } from 'react-toastify';
import { AuthProvider } from '../lib/auth.tsx';

/**
 * Renders a screen part the way the app does: a fresh query client (no retries, so a failure shows at
 * once), the session, a router at `path` and the toasts. Returns the query client too.
 */
export function renderApp(ui: ReactNode, { path = '/', auth = true }: { path?: string; auth?: boolean } = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const inner = (
    <MemoryRouter initialEntries={[path]}>
      {ui}
      <ToastContainer />
    </MemoryRouter>
  );
  const result = render(
    <QueryClientProvider client={client}>{auth ? <AuthProvider>{inner}</AuthProvider> : inner}</QueryClientProvider>,
  );
  return { ...result, client };
}
