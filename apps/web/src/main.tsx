import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import './index.css';
import { AppRouter } from './app/router.tsx';
import { AuthProvider } from './lib/auth.tsx';
import { queryClient } from './lib/query-client.ts';

const root = document.getElementById('root');
if (root) {
  const reactRoot = createRoot(root);
  // A transition: React builds the first screen in slices that give way to the browser (input, paint), not in
  // one long task; the HTML shell stays on screen until it commits (docs/decisions/0065).
  startTransition(() =>
    reactRoot.render(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <AuthProvider>
            <AppRouter />
          </AuthProvider>
        </QueryClientProvider>
      </StrictMode>,
    ),
  );
}
