import { Component, type ReactNode } from 'react';
import { TEXT } from '@harvest/shared/texts';
import { t } from '../lib/i18n.tsx';

/** The generic fallback page; a lazily loaded screen that failed says 'Loading chunk failed'. */
export function ErrorPage({ error }: { error: unknown }) {
  const chunk = error instanceof Error && error.message === TEXT.chunkFailed;
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div role="alert" className="max-w-md rounded-2xl bg-white p-8 text-center shadow-2xl">
        <h1 className="text-2xl font-bold text-slate-900">{t(TEXT.appError)}</h1>
        <p className="mt-3 text-slate-700">{chunk ? t(TEXT.chunkFailed) : t('Please reload the page.')}</p>
        <button
          type="button"
          onClick={() => window.location.reload()}
          className="mt-6 rounded-lg bg-purple-700 px-4 py-2 font-semibold text-white"
        >
          {t('Reload')}
        </button>
      </div>
    </main>
  );
}

/** Shows ErrorPage instead of a screen that threw while rendering or failed to load. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state: { error: unknown } = { error: null };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override render() {
    return this.state.error ? <ErrorPage error={this.state.error} /> : this.props.children;
  }
}
