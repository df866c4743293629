import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import './index.css';
import { AppRouter } from './app/router.tsx';
import { AuthProvider } from './lib/auth.tsx';
import { I18nProvider, initialLocale, setLocale } from './lib/i18n.tsx';
import { queryClient } from './lib/query-client.ts';

const root = document.getElementById('root');
if (root) {
  const reactRoot = createRoot(root);
  // A transition: React builds the first screen in slices that give way to the browser (input, paint), not in
  // one long task; the HTML shell stays on screen until it commits (docs/decisions/0065).
  const render = () =>
    startTransition(() =>
      reactRoot.render(
        <StrictMode>
          <QueryClientProvider client={queryClient}>
            <AuthProvider>
              <I18nProvider>
                <AppRouter />
              </I18nProvider>
            </AuthProvider>
          </QueryClientProvider>
        </StrictMode>,
      ),
    );
  // English is in the code; another language's catalogue comes first (docs/decisions/0075). Detected, not chosen:
  // the account's language still wins at sign-in.
  const locale = initialLocale();
  if (locale === 'en') render();
  else void setLocale(locale, { remember: false }).then(render, render);
}
