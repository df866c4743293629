import { fetchFile, save } from '../../../lib/download.ts';

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
 * Downloads a CSV export. An export with no rows is not saved (a header-only file says nothing): the caller says so
 * instead.
 */
export async function downloadCsv(path: string, fallbackName: string): Promise<{ name: string; rows: number }> {
  const file = await fetchFile(path, fallbackName, 'text/csv');
  const rows = csvRowCount(await file.blob.text());
  if (rows > 0) save(file);
  return { name: file.name, rows };
}
