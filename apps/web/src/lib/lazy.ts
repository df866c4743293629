import { useEffect, useState } from 'react';
import { LAZY_CHUNK_TIMEOUT_MS } from '@harvest/shared/constants';
import { TEXT } from '@harvest/shared/texts';

/** A lazily loaded screen that fails with 'Loading chunk failed' on error or after 120 s. */
export function loadChunk<T>(load: () => Promise<T>): () => Promise<T> {
  return () =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(TEXT.chunkFailed)), LAZY_CHUNK_TIMEOUT_MS);
      load().then(
        (m) => {
          clearTimeout(timer);
          resolve(m);
        },
        () => {
          clearTimeout(timer);
          reject(new Error(TEXT.chunkFailed));
        },
      );
    });
}

/** How long after the load event the page is left alone before what it does not need to show loads. */
const SETTLE_MS = 1_000;
let settled: Promise<void> | null = null;

/**
 * Resolves once the page has loaded and had a moment to show its content: the load event, a second,
 * then an idle moment (at most one more second). What no page needs in order to appear (the profile
 * menu with its dialogs, the toast container) waits for it, so on a slow phone it does not compete with
 * the page's own chunks and data. Later navigations find it resolved.
 */
export function whenPageSettled(): Promise<void> {
  settled ??= new Promise<void>((resolve) => {
    const idle = () =>
      typeof requestIdleCallback === 'function' ? requestIdleCallback(() => resolve(), { timeout: 1_000 }) : resolve();
    const later = () => setTimeout(idle, SETTLE_MS);
    if (document.readyState === 'complete') later();
    else window.addEventListener('load', later, { once: true });
  });
  return settled;
}

/** True once whenPageSettled() has resolved. */
export function usePageSettled(): boolean {
  const [done, setDone] = useState(false);
  useEffect(() => {
    let live = true;
    void whenPageSettled().then(() => live && setDone(true));
    return () => {
      live = false;
    };
  }, []);
  return done;
}
