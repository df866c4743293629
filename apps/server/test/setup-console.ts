import { afterEach, vi } from 'vitest';

// An unexpected console.error fails the test (Epic Stack habit); tests that expect one spy on it. Wrapped once
// per worker (the workers keep their modules from one file to the next).
const seen = ((globalThis as { __hfConsoleErrors?: unknown[][] }).__hfConsoleErrors ??= (() => {
  const errors: unknown[][] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => {
    errors.push(args);
    original(...args);
  };
  return errors;
})());
afterEach(() => {
  const first = seen[0];
  seen.length = 0;
  if (first && !vi.isMockFunction(console.error)) throw new Error(`console.error was called: ${String(first[0])}`);
});
