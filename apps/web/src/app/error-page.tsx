import { isRouteErrorResponse, useRouteError } from 'react-router';
import { TEXT } from '@harvest/shared/texts';

/** The generic fallback page; a lazily loaded screen that failed says 'Loading chunk failed'. */
export function ErrorPage() {
  const error = useRouteError();
  const chunk = error instanceof Error && error.message === TEXT.chunkFailed;
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div role="alert" className="max-w-md rounded-2xl bg-white p-8 text-center shadow-2xl">
        <h1 className="text-2xl font-bold text-slate-900">{TEXT.appError}</h1>
        <p className="mt-3 text-slate-600">
          {chunk
            ? TEXT.chunkFailed
            : isRouteErrorResponse(error)
              ? `${error.status} ${error.statusText}`
              : 'Please reload the page.'}
        </p>
        <button
          type="button"
          onClick={() => window.location.reload()}
          className="mt-6 rounded-lg bg-purple-700 px-4 py-2 font-semibold text-white"
        >
          Reload
        </button>
      </div>
    </main>
  );
}
