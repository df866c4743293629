import type { ReactNode } from 'react';

/** The sign-in and sign-up card; the page heading is its title (focused after navigation by the layout). */
export function AuthCard({ title, intro, children }: { title: string; intro?: string; children: ReactNode }) {
  return (
    <div className="flex min-h-[calc(100vh-4rem)] items-start justify-center px-4 py-10 sm:items-center">
      <div className="w-full max-w-md min-w-0 rounded-2xl bg-white p-6 shadow-2xl sm:p-8">
        <h1 tabIndex={-1} className="text-center text-2xl font-bold text-slate-900">
          {title}
        </h1>
        {intro && <p className="mt-2 text-center text-sm text-slate-700">{intro}</p>}
        <div className="mt-6">{children}</div>
      </div>
    </div>
  );
}
