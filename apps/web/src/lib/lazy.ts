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
