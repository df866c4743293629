import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { errorText } from '../../lib/api-client.ts';
import { Button } from './button.tsx';
import { t } from '../../lib/i18n.tsx';

/** Grey bars where content will be: loading never looks like "empty" or "zero". */
export function Skeleton({ lines = 3, label }: { lines?: number; label?: string }) {
  return (
    <div role="status" aria-label={label ?? t('Loading')} className="animate-pulse space-y-2">
      {Array.from({ length: lines }, (_, i) => (
        <div key={i} className="h-4 rounded bg-slate-200" style={{ width: `${90 - i * 15}%` }} />
      ))}
    </div>
  );
}

/**
 * A failed read says so, with the server's text when it sent one (else `fallback`, the spec's text where it
 * has one, or "Could not load {what}."), and offers Retry.
 */
export function LoadError({
  error,
  what,
  fallback,
  onRetry,
}: {
  error: unknown;
  what: string;
  fallback?: string;
  onRetry: () => void;
}) {
  return (
    <div role="alert" className="flex flex-wrap items-center justify-between gap-2 rounded-lg bg-red-50 p-3">
      <p className="text-sm text-red-800">{errorText(error, fallback ?? t('Could not load {what}.', { what }))}</p>
      <Button variant="secondary" onClick={onRetry}>
        {t('Retry')}
      </Button>
    </div>
  );
}

/**
 * The three states of a read: a skeleton while loading, an error with Retry when it failed (and nothing
 * was read before), the content once the data is there. Later failures keep the last data on screen.
 */
export function QueryState<T>({
  query,
  what,
  fallback,
  lines,
  frame,
  children,
}: {
  query: UseQueryResult<T>;
  /** What is loaded, for the texts ("your deposits"). */
  what: string;
  /** The spec's text for this failed read, where it has one. */
  fallback?: string;
  lines?: number;
  /** Where the skeleton and the error sit until there is data (e.g. a card with the panel's title). */
  frame?: (state: ReactNode) => ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (query.data !== undefined) return <>{children(query.data)}</>;
  const state = query.isError ? (
    <LoadError error={query.error} what={what} fallback={fallback} onRetry={() => void query.refetch()} />
  ) : (
    <Skeleton lines={lines} label={t('Loading {what}', { what })} />
  );
  return <>{frame ? frame(state) : state}</>;
}
