import { ApiError, apiErrorOf, tokenStore } from '../../../lib/api-client.ts';

/** Data rows of a CSV document (RFC 4180: a line break inside quotes is part of a cell), without the header. */
export function csvRowCount(text: string): number {
  let lines = 0;
  let quoted = false;
  for (const c of text) {
    if (c === '"') quoted = !quoted;
    else if (c === '\n' && !quoted) lines++;
  }
  if (text.length > 0 && !text.endsWith('\n')) lines++;
  return Math.max(0, lines - 1);
}

/**
 * Downloads a CSV export. The API needs the bearer token, which a plain link cannot send, so
 * the file is fetched, turned into a blob and saved through a temporary object URL. An export with
 * no rows is not saved (a header-only file says nothing): the caller says so instead.
 */
export async function downloadCsv(path: string, fallbackName: string): Promise<{ name: string; rows: number }> {
  const token = tokenStore.get();
  let res: Response;
  try {
    res = await fetch(`/api${path}`, {
      headers: { accept: 'text/csv', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
  } catch {
    throw new ApiError(0, null);
  }
  if (!res.ok) {
    let data: unknown = null;
    try {
      data = await res.json();
    } catch {
      data = null;
    }
    throw apiErrorOf(res.status, data);
  }
  const blob = await res.blob();
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  const rows = csvRowCount(await blob.text());
  if (rows === 0) return { name, rows };
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
  return { name, rows };
}
