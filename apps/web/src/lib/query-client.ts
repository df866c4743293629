import { QueryClient } from '@tanstack/react-query';
import { POLL_INVESTMENTS_MS } from '@harvest/shared/constants';
import { pollBackoffMs } from '@harvest/shared/poll-backoff';
import { ApiError } from './api-client.ts';

/** The server shed this read for overload (503 `overloaded`): it is asked again later, not shown as a failure. */
const isOverloaded = (err: unknown): err is ApiError => err instanceof ApiError && err.code === 'overloaded';

/**
 * The wait before a read that failed is tried again. Shed for overload (decision 0096): the server's Retry-After at
 * least, longer each time (pollBackoffMs from the read's poll interval), for as long as it is shed; meanwhile the
 * screen keeps what it shows, with no error and no toast. Any other failure: 1 s, then 2 s.
 */
export const retryDelayFor =
  (everyMs: number = POLL_INVESTMENTS_MS) =>
  (count: number, err: Error): number =>
    isOverloaded(err) ? pollBackoffMs(count + 1, everyMs, err.retryAfterMs) : Math.min(1000 * 2 ** count, 30_000);

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (count, err) =>
        isOverloaded(err) || (!(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 2),
      retryDelay: retryDelayFor(),
      refetchOnWindowFocus: true,
      staleTime: 5_000,
    },
  },
});
