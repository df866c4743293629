import { afterEach, beforeEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { toast } from 'react-toastify';

// findBy and waitFor wait for a condition, up to 5 s rather than 1: a loaded machine (a language's catalogue loading
// before its save) takes longer than a second, and a condition that holds ends the wait at once.
configure({ asyncUtilTimeout: 5_000 });

// An unexpected console.error fails the test, as on the server (apps/server/test/setup-console.ts): React
// warnings (act, keys, invalid DOM) and errors the app logs are bugs. A test that expects one spies on it.
let errors: unknown[][] = [];
const original = console.error;
console.error = (...args: unknown[]) => {
  errors.push(args);
  original(...args);
};

// The files share one window per worker (vite.config.ts): a toast a previous test raised as it ended (the app
// raises them a tick late) must not show up in this one's container.
beforeEach(() => {
  toast.dismiss();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
  const seen = errors;
  errors = [];
  if (seen.length > 0 && !vi.isMockFunction(console.error))
    throw new Error(`console.error was called: ${String(seen[0]?.[0])}`);
});
